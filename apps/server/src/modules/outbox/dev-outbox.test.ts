import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { apiHeaders, createTestApp } from '../../../test/support/context.js';
import { insertTestLink } from '../../../test/support/auth.js';

let app: FastifyInstance;
let ctx: AppContext;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ app, ctx, close } = await createTestApp());
});
afterAll(async () => close());

describe('sandbox outbox', () => {
  it('lists what sign-in sent, newest first, filtered by recipient, with no key', async () => {
    const sms = await insertTestLink(ctx.db, { phone: '(555) 400-1234' });
    const mail = await insertTestLink(ctx.db, { method: 'email', email: 'Pat@Example.com' });
    const h = apiHeaders(ctx);
    expect(
      (await app.inject({ method: 'POST', url: '/api/auth/sms/send', headers: h, payload: { linkId: sms } }))
        .statusCode,
    ).toBe(200);
    expect(
      (
        await app.inject({
          method: 'POST',
          url: '/api/auth/email/send',
          headers: h,
          payload: { linkId: mail, email: 'pat@example.com' },
        })
      ).statusCode,
    ).toBe(200);

    const all = await app.inject({ method: 'GET', url: '/api/dev/outbox' });
    expect(all.statusCode).toBe(200);
    const items = all.json() as {
      id: string;
      channel: string;
      to: string;
      subject: string | null;
      text: string;
      html: string | null;
      createdAt: string;
    }[];
    expect(items.map((m) => m.channel)).toEqual(['email', 'sms']);
    expect(items[0]).toMatchObject({ to: 'Pat@Example.com', subject: 'Sign in to Bella Vista Plastic Surgery' });
    expect(items[0]!.html).toContain('<html');
    expect(items[1]).toMatchObject({ to: '(555) 400-1234', subject: null, html: null });
    expect(Date.parse(items[0]!.createdAt)).toBeGreaterThanOrEqual(Date.parse(items[1]!.createdAt));

    const bySms = (await app.inject({ method: 'GET', url: '/api/dev/outbox?to=%2B15554001234' })).json() as unknown[];
    expect(bySms).toHaveLength(1);
    const byMail = (await app.inject({ method: 'GET', url: '/api/dev/outbox?to=pat@example.com' })).json() as unknown[];
    expect(byMail).toHaveLength(1);
    const none = (
      await app.inject({ method: 'GET', url: '/api/dev/outbox?to=nobody@example.com' })
    ).json() as unknown[];
    expect(none).toHaveLength(0);

    const page = await app.inject({ method: 'GET', url: '/dev/outbox?to=(555) 400-1234' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('Sandbox mode');
    expect(page.body).toMatch(/<mark class="code">\d{6}<\/mark>/);
    const all2 = await app.inject({ method: 'GET', url: '/dev/outbox' });
    expect(all2.body).toMatch(/<a href="http:\/\/localhost:\d+\/auth\?id=/);
    const html = await app.inject({ method: 'GET', url: `/dev/outbox/${items[0]!.id}` });
    expect(html.body).toContain('Sign in');
  });

  it('answers 404 outside sandbox mode', async () => {
    const prod = await createTestApp({ PAYLINK_MODE: 'production', ...PRODUCTION_ENV });
    try {
      for (const url of ['/api/dev/outbox', '/dev/outbox']) {
        expect((await prod.app.inject({ method: 'GET', url })).statusCode).toBe(404);
      }
    } finally {
      await prod.close();
    }
  });
});

const PRODUCTION_ENV = {
  TWILIO_ACCOUNT_SID: 'AC00000000000000000000000000000000',
  TWILIO_AUTH_TOKEN: 'x',
  TWILIO_FROM: '+15550000000',
  SMTP_HOST: '127.0.0.1',
  TURNSTILE_SITE_KEY: 'x',
  TURNSTILE_SECRET_KEY: 'x',
  CONVERGE_MERCHANT_ID: 'x',
  CONVERGE_USER_ID: 'x',
  CONVERGE_PIN: 'x',
  PAYLINK_API_KEY: 'k'.repeat(32),
  PAYLINK_SESSION_SECRET: 's'.repeat(32),
  PAYLINK_SECRETS_KEY: 'c'.repeat(32),
  SIGN_ORIGIN: 'https://sign.example.com',
  PUBLIC_URL: 'https://pay.example.com',
};
