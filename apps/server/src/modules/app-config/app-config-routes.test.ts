import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appConfigSchema } from '@paylink/shared';
import { apiHeaders, createTestApp } from '../../../test/support/context.js';

describe('GET /api/config', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    t = await createTestApp({ PRACTICE_NAME: 'Sunrise Aesthetics', PRACTICE_PHONE: '(555) 222-3333' });
  });
  afterAll(async () => t.close());

  it('needs the API key', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/api/config' });
    expect(r.statusCode).toBe(401);
  });

  it("answers the practice's branding, the signing and gateway origins and no captcha key in sandbox", async () => {
    const r = await t.app.inject({ method: 'GET', url: '/api/config', headers: apiHeaders(t.ctx) });
    expect(r.statusCode).toBe(200);
    const body = appConfigSchema.parse(r.json());
    const practice = await t.ctx.db.query<{ name: string }>('select name from practice where id = 1');
    expect(body.practice.name).toBe(practice.rows[0]?.name ?? 'Sunrise Aesthetics');
    expect(body.signOrigin).toBe(t.ctx.config.signOrigin);
    expect(body.gateway.checkoutJsUrl.startsWith(t.ctx.config.gatewayOrigin)).toBe(true);
    expect(body.captchaSiteKey).toBeNull();
    expect(body.sandbox).toBe(true);
  });

  it('follows the practice row when staff change it', async () => {
    await t.ctx.db.query(
      `insert into practice (id, name, support_phone, support_email, sender_name, logo_url)
       values (1, 'Renamed Clinic', '(555) 999-0000', 'help@renamed.example', 'Renamed Clinic', '/logo.png')
       on conflict (id) do update set name = excluded.name, support_phone = excluded.support_phone,
         support_email = excluded.support_email, logo_url = excluded.logo_url`,
    );
    const r = await t.app.inject({ method: 'GET', url: '/api/config', headers: apiHeaders(t.ctx) });
    expect(r.json().practice).toEqual({
      name: 'Renamed Clinic',
      supportPhone: '(555) 999-0000',
      supportEmail: 'help@renamed.example',
      logoUrl: '/logo.png',
    });
  });
});

describe('GET /api/config with a real captcha', () => {
  it('hands out the Turnstile site key only when the secret is configured too', async () => {
    const t = await createTestApp({
      PAYLINK_MODE: 'sandbox',
      TURNSTILE_SITE_KEY: '0x4AAAAAAAtest',
      TURNSTILE_SECRET_KEY: '0x4AAAAAAAsecret',
    });
    try {
      const r = await t.app.inject({ method: 'GET', url: '/api/config', headers: apiHeaders(t.ctx) });
      expect(r.json().captchaSiteKey).toBe('0x4AAAAAAAtest');
    } finally {
      await t.close();
    }
  });
});
