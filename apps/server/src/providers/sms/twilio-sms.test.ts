import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiHeaders, createTestApp } from '../../../test/support/context.js';
import { codeIn, insertTestLink } from '../../../test/support/auth.js';
import { deliverDueMessages } from '../../modules/outbox/outbox-worker.js';
import { twilioSms } from './twilio-sms.js';
import { ProviderSendError, toE164 } from './types.js';

/** A local HTTP server standing in for api.twilio.com: records requests, answers what the test says. */
interface Seen {
  method: string;
  url: string;
  auth: string;
  type: string;
  form: URLSearchParams;
}
const seen: Seen[] = [];
let reply: { status: number; body: unknown } = { status: 201, body: { sid: 'SM0123456789abcdef0123456789abcdef' } };
let server: http.Server;
let baseUrl: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let data = '';
    req.on('data', (c: Buffer) => (data += c.toString()));
    req.on('end', () => {
      seen.push({
        method: req.method!,
        url: req.url!,
        auth: req.headers.authorization ?? '',
        type: req.headers['content-type'] ?? '',
        form: new URLSearchParams(data),
      });
      res.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  seen.length = 0;
  reply = { status: 201, body: { sid: 'SM0123456789abcdef0123456789abcdef' } };
});

const SID = 'AC11111111111111111111111111111111';

describe('Twilio SMS provider', () => {
  it('POSTs To, From and Body as a form to Messages.json with Basic auth', async () => {
    const sms = twilioSms({ accountSid: SID, authToken: 'tok', from: '+15550001111', baseUrl });
    const r = await sms.send({ to: '(555) 201-4567', body: 'Your code is 123456' });
    expect(r.providerId).toBe('SM0123456789abcdef0123456789abcdef');
    expect(seen).toHaveLength(1);
    const s = seen[0]!;
    expect(s.method).toBe('POST');
    expect(s.url).toBe(`/2010-04-01/Accounts/${SID}/Messages.json`);
    expect(s.auth).toBe(`Basic ${Buffer.from(`${SID}:tok`).toString('base64')}`);
    expect(s.type).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(s.form)).toEqual({
      To: '+15552014567',
      From: '+15550001111',
      Body: 'Your code is 123456',
    });
  });

  it('refusals (4xx) are permanent; rate limits and outages are retried', async () => {
    const sms = twilioSms({ accountSid: SID, authToken: 'tok', from: '+15550001111', baseUrl });
    reply = {
      status: 400,
      body: { code: 21211, message: "The 'To' number is not a valid phone number.", status: 400 },
    };
    const e1 = (await sms.send({ to: '5552014567', body: 'x' }).catch((e: unknown) => e)) as ProviderSendError;
    expect(e1).toBeInstanceOf(ProviderSendError);
    expect(e1.permanent).toBe(true);
    expect(e1.message).toContain('21211');
    for (const status of [429, 500, 503]) {
      reply = { status, body: { message: 'busy' } };
      const e = (await sms.send({ to: '5552014567', body: 'x' }).catch((err: unknown) => err)) as ProviderSendError;
      expect(e.permanent).toBe(false);
    }
    const down = twilioSms({ accountSid: SID, authToken: 'tok', from: '+1', baseUrl: 'http://127.0.0.1:1' });
    const e2 = (await down.send({ to: '5552014567', body: 'x' }).catch((e: unknown) => e)) as ProviderSendError;
    expect(e2.permanent).toBe(false);
  });

  it('numbers become E.164; what cannot be is refused before calling Twilio', async () => {
    expect(toE164('(555) 201-4567')).toBe('+15552014567');
    expect(toE164('1-555-201-4567')).toBe('+15552014567');
    expect(toE164('+52 55 1234 5678')).toBe('+525512345678');
    expect(toE164('12345')).toBeNull();
    const sms = twilioSms({ accountSid: SID, authToken: 'tok', from: '+15550001111', baseUrl });
    const e = (await sms.send({ to: '12345', body: 'x' }).catch((err: unknown) => err)) as ProviderSendError;
    expect(e.permanent).toBe(true);
    expect(seen).toHaveLength(0);
  });

  it('the sign-in code goes from the API through the outbox worker to Twilio', async () => {
    const { app, ctx, close } = await createTestApp({
      PAYLINK_MODE: 'sandbox',
      TWILIO_ACCOUNT_SID: SID,
      TWILIO_AUTH_TOKEN: 'tok',
      TWILIO_FROM: '+15550001111',
      TWILIO_API_BASE_URL: baseUrl,
    });
    try {
      const linkId = await insertTestLink(ctx.db, { phone: '555-201-4567' });
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/sms/send',
        headers: apiHeaders(ctx),
        payload: { linkId },
      });
      expect(res.statusCode).toBe(200);
      expect(await deliverDueMessages(ctx)).toEqual({ sent: 1, retrying: 0, failed: 0 });
      expect(seen).toHaveLength(1);
      expect(seen[0]!.form.get('To')).toBe('+15552014567');
      const code = codeIn(seen[0]!.form.get('Body')!)!;
      const ok = await app.inject({
        method: 'POST',
        url: '/api/auth/sms/verify',
        headers: apiHeaders(ctx),
        payload: { linkId, code },
      });
      expect(ok.statusCode).toBe(200);
      const row = await ctx.db.query<{ provider: string; provider_id: string; body_text: string }>(
        'select provider, provider_id, body_text from outbox_message',
      );
      expect(row.rows).toHaveLength(1);
      expect(row.rows[0]).toMatchObject({ provider: 'twilio', provider_id: 'SM0123456789abcdef0123456789abcdef' });
      // once Twilio has it, the stored copy no longer holds the code
      expect(row.rows[0]!.body_text).not.toContain(code);
    } finally {
      await close();
    }
  });
});
