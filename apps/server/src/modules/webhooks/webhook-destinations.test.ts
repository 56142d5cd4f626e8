import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { staffToken } from '../../seed/seed-staff.js';
import { createTestApp } from '../../../test/support/context.js';
import { checkWebhookUrl, webhookPolicy } from './destination.js';
import { deliverDueWebhooks } from './webhook-worker.js';

/**
 * Issue 26, Low: webhook endpoints could point at internal addresses (loopback, private ranges, link-local and the
 * cloud metadata service), also after DNS resolution and through redirects.
 */
let t: Awaited<ReturnType<typeof createTestApp>>;
let admin: Record<string, string>;
const PROD = {
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  PAYLINK_MODE: 'production',
  PAYLINK_API_KEY: 'k'.repeat(32),
  PAYLINK_SESSION_SECRET: 's'.repeat(32),
  PAYLINK_SECRETS_KEY: 'c'.repeat(32),
  SIGN_ORIGIN: 'https://sign.example.com',
  PUBLIC_URL: 'https://pay.example.com',
  TWILIO_ACCOUNT_SID: 'AC' + '0'.repeat(32),
  TWILIO_AUTH_TOKEN: 'x'.repeat(32),
  TWILIO_FROM: '+15125550100',
  SMTP_HOST: 'smtp.example.com',
  TURNSTILE_SECRET_KEY: 'x',
  TURNSTILE_SITE_KEY: 'x',
  CONVERGE_MERCHANT_ID: '1',
  CONVERGE_USER_ID: 'u',
  CONVERGE_PIN: 'p',
};
/** A resolver for tests: names in the map resolve there, everything else to a public address. */
const fakeLookup =
  (names: Record<string, string>) =>
  async (host: string): Promise<string[]> => [names[host] ?? '93.184.216.34'];

beforeAll(async () => {
  t = await createTestApp();
  admin = { authorization: `Bearer ${await staffToken(t.ctx.db, { email: 'hooks@example.com', role: 'admin' })}` };
});
afterAll(async () => t.close());

describe('which webhook destinations are refused', () => {
  const prod = webhookPolicy(loadConfig(PROD));
  const lookup = fakeLookup({ 'rebind.example': '169.254.169.254', 'inside.example': '10.0.0.7' });

  it('production: loopback, private, link-local, metadata and other non-public addresses, by literal or by name', async () => {
    for (const url of [
      'https://127.0.0.1/x',
      'https://10.1.2.3/x',
      'https://172.16.0.1/x',
      'https://192.168.1.1/x',
      'https://169.254.169.254/latest/meta-data/',
      'https://100.64.0.1/x',
      'https://0.0.0.0/x',
      'https://[::1]/x',
      'https://[fd00::1]/x',
      'https://[fe80::1]/x',
      'https://[::ffff:127.0.0.1]/x',
      'https://2130706433/x',
      'https://localhost/x',
      'https://metadata.google.internal/computeMetadata/v1/',
      'https://rebind.example/x',
      'https://inside.example/x',
    ]) {
      expect(await checkWebhookUrl(url, prod, lookup), url).toMatch(/internal address|internal name/);
    }
    expect(await checkWebhookUrl('https://hooks.example.com/x', prod, lookup)).toBeNull();
    expect(await checkWebhookUrl('https://93.184.216.34/x', prod, lookup)).toBeNull();
  });

  it('WEBHOOK_ALLOW_PRIVATE lets an admin allow listed ranges; the sandbox keeps loopback only', async () => {
    const allowed = webhookPolicy(loadConfig({ ...PROD, WEBHOOK_ALLOW_PRIVATE: '10.0.0.0/8, fd00::/8' }));
    expect(await checkWebhookUrl('https://inside.example/x', allowed, lookup)).toBeNull();
    expect(await checkWebhookUrl('https://[fd00::1]/x', allowed, lookup)).toBeNull();
    expect(await checkWebhookUrl('https://169.254.169.254/x', allowed, lookup)).toMatch(/internal address/);
    const sandbox = webhookPolicy(loadConfig({}));
    expect(await checkWebhookUrl('http://127.0.0.1:9999/x', sandbox, lookup)).toBeNull();
    expect(
      await checkWebhookUrl('http://localhost:9999/x', sandbox, fakeLookup({ localhost: '127.0.0.1' })),
    ).toBeNull();
    expect(await checkWebhookUrl('http://169.254.169.254/x', sandbox, lookup)).toMatch(/internal address/);
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE: '10.0.0.0/33' })).toThrow(/WEBHOOK_ALLOW_PRIVATE/);
  });

  it('registration in production answers 400 naming the setting, and stores nothing', async () => {
    const app = await buildApp({ ...t.ctx, config: loadConfig(PROD) });
    try {
      const before = (await t.ctx.db.query('select 1 from webhook_endpoint')).rowCount;
      for (const url of ['https://169.254.169.254/latest/meta-data/', 'https://[::1]/x', 'https://10.0.0.5/hook']) {
        const r = await app.inject({
          method: 'POST',
          url: '/api/admin/webhooks',
          headers: admin,
          payload: { url, events: ['link.created'] },
        });
        expect(r.statusCode, url).toBe(400);
        expect(r.json().message).toMatch(/WEBHOOK_ALLOW_PRIVATE/);
      }
      expect((await t.ctx.db.query('select 1 from webhook_endpoint')).rowCount).toBe(before);
    } finally {
      await app.close();
    }
  });

  it('delivery checks the address it connects to (DNS that changed after registration) and follows no redirect', async () => {
    let hits = 0;
    const receiver = http.createServer((_req, res) => {
      hits++;
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const port = (receiver.address() as AddressInfo).port;
    try {
      const ins = await t.ctx.db.query<{ id: string }>(
        `insert into webhook_endpoint (url, events, secret, description) values
           ('https://rebind.example/hook', '{link.created}', 'whsec_x', ''),
           ($1, '{link.created}', 'whsec_y', '') returning id`,
        [`http://127.0.0.1:${port}/hook`],
      );
      const ev = await t.ctx.db.query<{ id: string }>(
        `insert into webhook_event (id, type, body) values ('evt_rebind_test', 'link.created', '{}') returning id`,
      );
      for (const e of ins.rows) {
        await t.ctx.db.query(
          `insert into webhook_delivery (event_id, endpoint_id, give_up_at) values ($1, $2, now() + interval '1 day')`,
          [ev.rows[0]!.id, e.id],
        );
      }
      const prodCtx = { ...t.ctx, config: loadConfig(PROD) };
      await deliverDueWebhooks(prodCtx, { lookup });
      const rebound = await t.ctx.db.query<{ last_error: string; status: string }>(
        `select d.last_error, d.status from webhook_delivery d where d.endpoint_id = $1`,
        [ins.rows[0]!.id],
      );
      expect(rebound.rows[0]!.last_error).toMatch(/internal address 169\.254\.169\.254/);
      expect(rebound.rows[0]!.status).toBe('pending');
      // The sandbox keeps loopback receivers; their redirect is not followed.
      await t.ctx.db.query(`update webhook_delivery set next_attempt_at = now() where endpoint_id = $1`, [
        ins.rows[1]!.id,
      ]);
      await deliverDueWebhooks(t.ctx, { lookup });
      const redirected = await t.ctx.db.query<{ last_error: string; status: string }>(
        `select last_error, status from webhook_delivery where endpoint_id = $1`,
        [ins.rows[1]!.id],
      );
      expect(hits).toBe(1);
      expect(redirected.rows[0]!.last_error).toBe('HTTP 302');
    } finally {
      await new Promise((r) => receiver.close(r));
    }
  });
});
