import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appConfigSchema } from '@paylink/shared';
import { apiHeaders, createTestApp } from '../../../test/support/context.js';
import { staffToken } from '../../seed/seed-staff.js';
import { forgetPracticeRows } from '../../lib/practice-rows.js';

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
    // Written in SQL, behind the app: what seedPractice and the console's change do after their write (decision 0225).
    forgetPracticeRows(t.ctx.db);
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
      expect(r.json().captchaScriptUrl).toBe('https://challenges.cloudflare.com/turnstile/v0/api.js');
    } finally {
      await t.close();
    }
  });

  it('TURNSTILE_SCRIPT_URL moves the widget script: the app config, the CSP and the script inventory name it', async () => {
    const widget = 'http://127.0.0.1:7355/turnstile/v0/api.js';
    const t = await createTestApp({
      PAYLINK_MODE: 'sandbox',
      TURNSTILE_SITE_KEY: '0x4AAAAAAAtest',
      TURNSTILE_SECRET_KEY: '0x4AAAAAAAsecret',
      TURNSTILE_SCRIPT_URL: widget,
    });
    try {
      const r = await t.app.inject({ method: 'GET', url: '/api/config', headers: apiHeaders(t.ctx) });
      expect(r.json().captchaScriptUrl).toBe(widget);
      const page = await t.app.inject({ method: 'GET', url: '/auth' });
      const csp = Object.fromEntries(
        String(page.headers['content-security-policy'])
          .split(';')
          .map((d) => d.trim().split(/\s+/))
          .map(([name, ...values]) => [name, values]),
      );
      expect(csp['script-src']).toContain('http://127.0.0.1:7355');
      expect(csp['frame-src']).toContain('http://127.0.0.1:7355');
      expect(String(page.headers['content-security-policy'])).not.toContain('challenges.cloudflare.com');
      const admin = { authorization: `Bearer ${await staffToken(t.ctx.db, { email: 'owner@example.com' })}` };
      const inventory = await t.app.inject({ method: 'GET', url: '/api/admin/compliance/scripts', headers: admin });
      expect(inventory.json().scripts.filter((s: { owner: string }) => s.owner === 'captcha')).toEqual([
        expect.objectContaining({ url: widget }),
      ]);
    } finally {
      await t.close();
    }
  });

  it('the sandbox captcha loads no widget', async () => {
    const t = await createTestApp({ PAYLINK_MODE: 'sandbox' });
    try {
      const r = await t.app.inject({ method: 'GET', url: '/api/config', headers: apiHeaders(t.ctx) });
      expect(r.json()).toMatchObject({ captchaSiteKey: null, captchaScriptUrl: null });
    } finally {
      await t.close();
    }
  });
});
