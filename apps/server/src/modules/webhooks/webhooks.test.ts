import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { staffToken } from '../../seed/seed-staff.js';
import { createTestApp } from '../../../test/support/context.js';
import { deliverDueWebhooks, startWebhookWorker } from './webhook-worker.js';

/**
 * Outbound webhooks against a real local HTTP receiver: signatures verify with the documented algorithm, a receiver
 * that fails twice gets the event on the third try, and a server restart in between loses nothing.
 */
let t: Awaited<ReturnType<typeof createTestApp>>;
let admin: Record<string, string>;

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}
let received: Received[] = [];
let answers: number[] = [];
let receiver: http.Server;
let receiverUrl: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = { authorization: `Bearer ${await staffToken(t.ctx.db, { email: 'admin@example.com', role: 'admin' })}` };
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.statusCode = answers.shift() ?? 200;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/paylink`;
});
afterAll(async () => {
  await new Promise((r) => receiver.close(r));
  await t.close();
});

/** The documented receiver check (docs/money.md), line for line. */
function verify(secret: string, rawBody: string, header: string, toleranceSec = 300): boolean {
  const { t, v1 } = Object.fromEntries(header.split(',').map((p) => p.split('=')));
  if (!t || !v1 || Math.abs(Date.now() / 1000 - Number(t)) > toleranceSec) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest('hex');
  return expected.length === v1.length && timingSafeEqual(Buffer.from(expected), Buffer.from(v1));
}

async function register(events: string[]) {
  const r = await t.app.inject({
    method: 'POST',
    url: '/api/admin/webhooks',
    headers: admin,
    payload: { url: receiverUrl, events },
  });
  expect(r.statusCode).toBe(201);
  return r.json() as { id: string; secret: string; url: string };
}

async function createLink() {
  const r = await t.app.inject({
    method: 'POST',
    url: '/api/admin/links',
    headers: admin,
    payload: { firstName: 'Ana', lastName: 'Diaz', email: 'ana@example.com' },
  });
  expect(r.statusCode).toBe(201);
  return r.json().id as string;
}

/** Runs worker passes until the predicate holds (no fixed sleeps: each pass is real work). */
async function until(pred: () => boolean, opts: Parameters<typeof deliverDueWebhooks>[1] = {}) {
  for (let i = 0; i < 200 && !pred(); i++) {
    await deliverDueWebhooks(t.ctx, opts);
    if (!pred()) await new Promise((r) => setTimeout(r, 25));
  }
  expect(pred()).toBe(true);
}

describe('webhook endpoints', () => {
  it('registers with a secret shown once; lists without it; validates input; admins only', async () => {
    const ep = await register(['link.created']);
    expect(ep.secret).toMatch(/^whsec_/);
    const list = await t.app.inject({ method: 'GET', url: '/api/admin/webhooks', headers: admin });
    expect(JSON.stringify(list.json())).not.toContain(ep.secret);
    expect(list.json().webhooks.map((w: { id: string }) => w.id)).toContain(ep.id);

    for (const payload of [
      { url: 'not a url', events: ['link.created'] },
      { url: receiverUrl, events: [] },
      { url: receiverUrl, events: ['link.exploded'] },
    ]) {
      const r = await t.app.inject({ method: 'POST', url: '/api/admin/webhooks', headers: admin, payload });
      expect(r.statusCode, JSON.stringify(payload)).toBe(400);
    }
    const coord = `Bearer ${await staffToken(t.ctx.db, { email: 'c@example.com', role: 'coordinator' })}`;
    const r = await t.app.inject({ method: 'GET', url: '/api/admin/webhooks', headers: { authorization: coord } });
    expect(r.statusCode).toBe(403);
    const del = await t.app.inject({ method: 'DELETE', url: `/api/admin/webhooks/${ep.id}`, headers: admin });
    expect(del.statusCode).toBe(200);
  });

  it('requires https in production mode', async () => {
    const prodConfig = loadConfig({
      ...Object.fromEntries(Object.entries(t.ctx.config).filter(([, v]) => typeof v === 'string')),
      NODE_ENV: 'test',
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
      TURNSTILE_SITE_KEY: 'x',
      TURNSTILE_SECRET_KEY: 'x',
      CONVERGE_MERCHANT_ID: '1',
      CONVERGE_USER_ID: 'u',
      CONVERGE_PIN: 'p',
      LOG_LEVEL: 'silent',
    } as Record<string, string>);
    const app = await buildApp({ ...t.ctx, config: prodConfig });
    try {
      const r = await app.inject({
        method: 'POST',
        url: '/api/admin/webhooks',
        headers: admin,
        payload: { url: 'http://hooks.example.com/x', events: ['link.created'] },
      });
      expect(r.statusCode).toBe(400);
      expect(r.json().message).toMatch(/https/);
    } finally {
      await app.close();
    }
  });
});

describe('webhook delivery', () => {
  it('delivers a signed event that verifies with the documented algorithm, and only subscribed types', async () => {
    received = [];
    const ep = await register(['link.created', 'link.cancelled']);
    const linkId = await createLink();
    await until(() => received.length >= 1);
    const got = received[0]!;
    expect(got.headers['content-type']).toBe('application/json');
    expect(verify(ep.secret, got.body, String(got.headers['paylink-signature']))).toBe(true);
    expect(
      verify(ep.secret, got.body.replace('link.created', 'link.cancelled'), String(got.headers['paylink-signature'])),
    ).toBe(false);
    expect(verify('whsec_wrong', got.body, String(got.headers['paylink-signature']))).toBe(false);
    const body = JSON.parse(got.body);
    expect(body).toMatchObject({ type: 'link.created', data: { linkId } });
    expect(body.id).toMatch(/^evt_/);
    expect(got.headers['paylink-event-id']).toBe(body.id);
    expect(got.body).not.toContain('ana@example.com');
    expect(got.body).not.toContain('Diaz');

    // Expire is not subscribed; cancel is.
    await t.app.inject({ method: 'POST', url: `/api/admin/links/${linkId}/expire`, headers: admin, payload: {} });
    await t.app.inject({
      method: 'POST',
      url: `/api/admin/links/${linkId}/extend`,
      headers: admin,
      payload: { days: 1 },
    });
    await t.app.inject({ method: 'POST', url: `/api/admin/links/${linkId}/cancel`, headers: admin, payload: {} });
    await until(() => received.some((r) => r.body.includes('"link.cancelled"')));
    expect(received.some((r) => r.body.includes('"link.expired"'))).toBe(false);
    await t.app.inject({ method: 'DELETE', url: `/api/admin/webhooks/${ep.id}`, headers: admin });
  });

  it('a receiver that answers 500 twice gets the event on the third try, across a server restart; attempts are listed', async () => {
    received = [];
    answers = [500, 500];
    const ep = await register(['link.created']);
    const linkId = await createLink();
    const fast = { baseDelayMs: 20 };

    // First server process: one failed attempt, then it stops (as on a restart).
    const first = startWebhookWorker(t.ctx, { ...fast, pollMs: 20 });
    for (let i = 0; i < 400 && received.length < 1; i++) await new Promise((r) => setTimeout(r, 25));
    await first.stop();
    expect(received.length).toBeGreaterThanOrEqual(1);

    // A new app and worker on the same database: nothing is lost.
    const app2 = await buildApp(t.ctx);
    const second = startWebhookWorker(t.ctx, { ...fast, pollMs: 20 });
    try {
      for (let i = 0; i < 400 && received.length < 3; i++) await new Promise((r) => setTimeout(r, 25));
    } finally {
      await second.stop();
    }
    expect(received).toHaveLength(3);
    const ids = received.map((r) => JSON.parse(r.body).id);
    expect(new Set(ids).size).toBe(1);
    expect(new Set(received.map((r) => r.body)).size).toBe(1);
    for (const r of received) expect(verify(ep.secret, r.body, String(r.headers['paylink-signature']))).toBe(true);

    const list = await app2.inject({ method: 'GET', url: `/api/admin/webhooks/${ep.id}/deliveries`, headers: admin });
    await app2.close();
    expect(list.statusCode).toBe(200);
    const [d] = list.json().deliveries;
    expect(d).toMatchObject({ status: 'delivered', eventType: 'link.created' });
    expect(d.attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 500, 200]);
    for (const a of d.attempts) expect(Date.parse(a.at)).toBeGreaterThan(0);
    expect(JSON.parse(received[0]!.body).data.linkId).toBe(linkId);

    // Replay: a new delivery of the same event; rotate: the next one is signed with the new secret only.
    const rot = await t.app.inject({
      method: 'POST',
      url: `/api/admin/webhooks/${ep.id}/rotate-secret`,
      headers: admin,
    });
    expect(rot.statusCode).toBe(200);
    const newSecret = rot.json().secret as string;
    expect(newSecret).not.toBe(ep.secret);
    const replay = await t.app.inject({
      method: 'POST',
      url: `/api/admin/webhooks/deliveries/${d.id}/replay`,
      headers: admin,
    });
    expect(replay.statusCode).toBe(201);
    expect(replay.json()).toMatchObject({ eventId: ids[0], replayOf: d.id, status: 'pending' });
    await until(() => received.length === 4);
    expect(JSON.parse(received[3]!.body).id).toBe(ids[0]);
    expect(verify(newSecret, received[3]!.body, String(received[3]!.headers['paylink-signature']))).toBe(true);
    expect(verify(ep.secret, received[3]!.body, String(received[3]!.headers['paylink-signature']))).toBe(false);
    await t.app.inject({ method: 'DELETE', url: `/api/admin/webhooks/${ep.id}`, headers: admin });
  });

  it('gives up after 3 days of failures and records it', async () => {
    received = [];
    answers = Array(50).fill(503);
    const ep = await register(['link.created']);
    await createLink();
    await until(() => received.length >= 1);
    await t.ctx.db.query(
      `update webhook_delivery set give_up_at = now(), next_attempt_at = now() where endpoint_id = $1`,
      [ep.id],
    );
    await until(() => received.length >= 2);
    const d = await t.ctx.db.query<{ status: string; last_status_code: number }>(
      'select status, last_status_code from webhook_delivery where endpoint_id = $1',
      [ep.id],
    );
    expect(d.rows).toEqual([{ status: 'failed', last_status_code: 503 }]);
    answers = [];
  });
});
