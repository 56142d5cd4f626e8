import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiHeaders, createTestApp } from '../../../test/support/context.js';
import { insertTestLink } from '../../../test/support/auth.js';
import { turnstileCaptcha } from './turnstile-captcha.js';

/** A local stand-in for Cloudflare's siteverify: token 'good-token' passes, anything else fails. */
const seen: URLSearchParams[] = [];
let server: http.Server;
let verifyUrl: string;
let status = 200;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let data = '';
    req.on('data', (c: Buffer) => (data += c.toString()));
    req.on('end', () => {
      const form = new URLSearchParams(data);
      seen.push(form);
      const ok = form.get('secret') === 'turnstile-secret' && form.get('response') === 'good-token';
      res
        .writeHead(status, { 'content-type': 'application/json' })
        .end(
          JSON.stringify(
            ok
              ? { success: true, 'error-codes': [], hostname: 'pay.example.com' }
              : { success: false, 'error-codes': ['invalid-input-response'] },
          ),
        );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  verifyUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/turnstile/v0/siteverify`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  seen.length = 0;
  status = 200;
});

describe('Turnstile captcha provider', () => {
  it('posts secret, response and remoteip to siteverify and reads success', async () => {
    const c = turnstileCaptcha({ secretKey: 'turnstile-secret', siteKey: '0x4AAA', verifyUrl });
    expect(await c.verify({ token: 'good-token', remoteIp: '203.0.113.7' })).toEqual({ ok: true, errorCodes: [] });
    expect(Object.fromEntries(seen[0]!)).toEqual({
      secret: 'turnstile-secret',
      response: 'good-token',
      remoteip: '203.0.113.7',
    });
    expect(await c.verify({ token: 'forged' })).toEqual({ ok: false, errorCodes: ['invalid-input-response'] });
  });

  it('fails closed: no token, an error answer, or an unreachable Cloudflare', async () => {
    const c = turnstileCaptcha({ secretKey: 'turnstile-secret', siteKey: null, verifyUrl });
    expect((await c.verify({ token: undefined })).ok).toBe(false);
    expect(seen).toHaveLength(0);
    status = 500;
    expect((await c.verify({ token: 'good-token' })).ok).toBe(false);
    const down = turnstileCaptcha({ secretKey: 's', siteKey: null, verifyUrl: 'http://127.0.0.1:1/siteverify' });
    expect((await down.verify({ token: 'good-token' })).ok).toBe(false);
  });

  it('through the API: the site key reaches the client, a failed check sends nothing, and limits apply to passing checks', async () => {
    const { app, ctx, close } = await createTestApp({
      PAYLINK_MODE: 'sandbox',
      TURNSTILE_SITE_KEY: '0x4AAAAAAAtestsitekey',
      TURNSTILE_SECRET_KEY: 'turnstile-secret',
      TURNSTILE_VERIFY_URL: verifyUrl,
    });
    try {
      const linkId = await insertTestLink(ctx.db);
      const opts = await app.inject({
        method: 'GET',
        url: `/api/auth/options?linkId=${linkId}`,
        headers: apiHeaders(ctx),
      });
      expect(opts.json()).toEqual({ method: 'sms', captchaSiteKey: '0x4AAAAAAAtestsitekey' });

      const send = (captchaToken?: string) =>
        app.inject({
          method: 'POST',
          url: '/api/auth/sms/send',
          headers: apiHeaders(ctx),
          payload: { linkId, captchaToken },
        });
      for (const token of [undefined, 'forged']) {
        const bad = await send(token);
        expect(bad.statusCode).toBe(400);
        expect(bad.json()).toMatchObject({ error: 'auth/captcha-check-failed' });
      }
      expect((await ctx.db.query('select 1 from outbox_message')).rows).toHaveLength(0);
      expect((await send('good-token')).statusCode).toBe(200);
      const again = await send('good-token');
      expect(again.statusCode).toBe(429);
      expect(again.json().error).toBe('auth/too-many-requests');
      const audit = await ctx.db.query<{ action: string }>(
        'select action from audit_event where link_id = $1 order by id',
        [linkId],
      );
      expect(audit.rows.map((r) => r.action)).toEqual([
        'auth.sms.send.captcha_failed',
        'auth.sms.send.captcha_failed',
        'auth.sms.sent',
        'auth.sms.send.limited',
      ]);
    } finally {
      await close();
    }
  });
});
