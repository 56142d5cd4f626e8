import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { apiHeaders, createTestApp } from '../../../test/support/context.js';
import { codeIn, insertTestLink, lastMessageTo } from '../../../test/support/auth.js';

let app: FastifyInstance;
let ctx: AppContext;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ app, ctx, close } = await createTestApp());
});
afterAll(async () => close());

const PHONE = '(555) 201-4567';

async function send(linkId: string, extra: Record<string, unknown> = {}) {
  return app.inject({
    method: 'POST',
    url: '/api/auth/sms/send',
    headers: apiHeaders(ctx),
    payload: { linkId, ...extra },
  });
}
async function verify(linkId: string, code: string) {
  return app.inject({
    method: 'POST',
    url: '/api/auth/sms/verify',
    headers: apiHeaders(ctx),
    payload: { linkId, code },
  });
}
async function sendAndReadCode(linkId: string): Promise<string> {
  const res = await send(linkId);
  expect(res.statusCode).toBe(200);
  return codeIn((await lastMessageTo(ctx.db, PHONE))!.body_text)!;
}
/** A wrong code that is certainly not the right one. */
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');
const auditActions = async (linkId: string) =>
  (
    await ctx.db.query<{ action: string }>('select action from audit_event where link_id = $1 order by id', [linkId])
  ).rows.map((r) => r.action);

describe('SMS sign-in', () => {
  let linkId: string;
  beforeEach(async () => {
    linkId = await insertTestLink(ctx.db, { phone: PHONE });
    // Each test gets a fresh link, but the outbox is shared: make the newest message to PHONE this test's.
    await ctx.db.query('delete from outbox_message');
  });

  it('tells the client the method and (sandbox) no captcha site key', async () => {
    const res = await app.inject({
      method: 'GET',
      url: `/api/auth/options?linkId=${linkId}`,
      headers: apiHeaders(ctx),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ method: 'sms', captchaSiteKey: null });
    const email = await insertTestLink(ctx.db, { method: 'email' });
    const res2 = await app.inject({
      method: 'GET',
      url: `/api/auth/options?linkId=${email}`,
      headers: apiHeaders(ctx),
    });
    expect(res2.json()).toEqual({ method: 'email', captchaSiteKey: null });
  });

  it('sends a 6-digit code to the phone on file and signs in with it, setting the session cookie', async () => {
    const res = await send(linkId);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ resendAfterSeconds: 30, expiresInSeconds: 600 });
    const msg = (await lastMessageTo(ctx.db, PHONE))!;
    expect(msg.body_text).toMatch(
      /^Bella Vista Plastic Surgery: your sign-in code is \d{6}\. It expires in 10 minutes\./,
    );
    expect(msg.body_text.length).toBeLessThan(160);
    const code = codeIn(msg.body_text)!;
    // only a keyed hash is stored
    const stored = await ctx.db.query<{ code_hash: string }>('select code_hash from otp_challenge where link_id = $1', [
      linkId,
    ]);
    expect(stored.rows[0]!.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored.rows)).not.toContain(code);

    const ok = await verify(linkId, code);
    expect(ok.statusCode).toBe(200);
    const body = ok.json() as { token: string; expiresAt: string };
    expect(body.token.split('.')).toHaveLength(3);
    const minutes = (Date.parse(body.expiresAt) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(58);
    expect(minutes).toBeLessThanOrEqual(60);
    const cookie = String(ok.headers['set-cookie']);
    expect(cookie).toContain(`jwt_authorization=${body.token}`);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\/api/);
    expect(cookie).toMatch(/Max-Age=(3[56]\d\d)/);
    expect(cookie).not.toMatch(/Secure/); // http://localhost in tests

    // The token opens this link (the guard accepts it) ...
    const refresh = await app.inject({
      method: 'POST',
      url: '/api/auth/session/refresh',
      headers: apiHeaders(ctx, body.token),
    });
    expect(refresh.statusCode).toBe(200);
    expect(await auditActions(linkId)).toEqual(['auth.sms.sent', 'auth.sms.verified', 'auth.session.refreshed']);
  });

  it('never sends to a number from the request', async () => {
    const res = await send(linkId, { phone: '+15559999999' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('invalid_request');
    const n = await ctx.db.query('select 1 from outbox_message');
    expect(n.rowCount).toBe(0);
  });

  it('a code works once', async () => {
    const code = await sendAndReadCode(linkId);
    expect((await verify(linkId, code)).statusCode).toBe(200);
    const again = await verify(linkId, code);
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toBe('auth/code-expired');
  });

  it('a code expires after OTP_TTL_MINUTES', async () => {
    const code = await sendAndReadCode(linkId);
    const { rows } = await ctx.db.query<{ minutes: number }>(
      `select round(extract(epoch from expires_at - created_at) / 60)::int as minutes from otp_challenge where link_id = $1`,
      [linkId],
    );
    expect(rows[0]!.minutes).toBe(10);
    await ctx.db.query(
      `update otp_challenge set created_at = created_at - interval '10 minutes', expires_at = expires_at - interval '10 minutes' where link_id = $1`,
      [linkId],
    );
    const res = await verify(linkId, code);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'auth/code-expired' });
  });

  it('a code dies after 5 wrong tries, even the right one afterwards', async () => {
    const code = await sendAndReadCode(linkId);
    for (let i = 1; i <= 4; i++) {
      const res = await verify(linkId, wrong(code));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'auth/invalid-verification-code' });
      expect(res.json().message).toContain(`${5 - i} tr`);
    }
    const fifth = await verify(linkId, wrong(code));
    expect(fifth.statusCode).toBe(429);
    expect(fifth.json().error).toBe('auth/too-many-requests');
    const right = await verify(linkId, code);
    expect(right.statusCode).toBe(429);
    expect(right.json().error).toBe('auth/too-many-requests');
    const actions = await auditActions(linkId);
    expect(actions.filter((a) => a === 'auth.sms.failed')).toHaveLength(5);
    expect(actions).toContain('auth.sms.locked');
    expect(actions).not.toContain('auth.sms.verified');
  });

  it('concurrent requests count as one queue (the limits hold across connections and processes)', async () => {
    const sends = await Promise.all(Array.from({ length: 6 }, () => send(linkId)));
    expect(sends.map((r) => r.statusCode).sort()).toEqual([200, 429, 429, 429, 429, 429]);
    expect((await ctx.db.query('select 1 from outbox_message')).rows.length).toBe(1);

    const code = codeIn((await lastMessageTo(ctx.db, PHONE))!.body_text)!;
    const tries = await Promise.all(Array.from({ length: 8 }, () => verify(linkId, wrong(code))));
    expect(tries.filter((r) => r.statusCode === 400)).toHaveLength(4);
    expect(tries.filter((r) => r.statusCode === 429)).toHaveLength(4);
    const r = await ctx.db.query<{ attempts: number }>('select attempts from otp_challenge where link_id = $1', [
      linkId,
    ]);
    expect(r.rows[0]!.attempts).toBe(5);
  });

  it('a new code replaces the old one', async () => {
    const first = await sendAndReadCode(linkId);
    await ctx.db.query(`update auth_send set created_at = now() - interval '31 seconds' where link_id = $1`, [linkId]);
    const second = await sendAndReadCode(linkId);
    if (first !== second) {
      const old = await verify(linkId, first);
      expect(old.statusCode).toBe(400);
      expect(old.json().error).toBe('auth/invalid-verification-code');
    }
    expect((await verify(linkId, second)).statusCode).toBe(200);
  });

  it('resend waits 30 seconds', async () => {
    await sendAndReadCode(linkId);
    const soon = await send(linkId);
    expect(soon.statusCode).toBe(429);
    expect(soon.json().error).toBe('auth/too-many-requests');
    const wait = Number(soon.headers['retry-after']);
    expect(wait).toBeGreaterThan(25);
    expect(wait).toBeLessThanOrEqual(30);
    expect((await ctx.db.query('select 1 from outbox_message')).rows.length).toBe(1);
    await ctx.db.query(`update auth_send set created_at = now() - interval '31 seconds' where link_id = $1`, [linkId]);
    expect((await send(linkId)).statusCode).toBe(200);
    expect(await auditActions(linkId)).toContain('auth.sms.send.limited');
  });

  it('at most 5 sends per link per hour', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await send(linkId)).statusCode).toBe(200);
      await ctx.db.query(`update auth_send set created_at = created_at - interval '40 seconds' where link_id = $1`, [
        linkId,
      ]);
    }
    const sixth = await send(linkId);
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().error).toBe('auth/too-many-requests');
    expect((await ctx.db.query('select 1 from outbox_message')).rows.length).toBe(5);
    // another link is not affected
    const other = await insertTestLink(ctx.db, { phone: '5552019999' });
    expect((await send(other)).statusCode).toBe(200);
    // an hour after the oldest send, one more is allowed
    await ctx.db.query(`update auth_send set created_at = created_at - interval '57 minutes' where link_id = $1`, [
      linkId,
    ]);
    expect((await send(linkId)).statusCode).toBe(200);
  });

  it("a code opens its own link only; unknown links get the phone lookup's generic 401", async () => {
    const code = await sendAndReadCode(linkId);
    const other = await insertTestLink(ctx.db, { phone: '5552010000' });
    const res = await verify(other, code);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('auth/code-expired');

    const unknown = 'x'.repeat(22);
    for (const r of [
      await send(unknown),
      await verify(unknown, code),
      await app.inject({ method: 'GET', url: `/api/auth/options?linkId=${unknown}`, headers: apiHeaders(ctx) }),
    ]) {
      expect(r.statusCode).toBe(401);
      expect(r.body).toBe('Not Authorized');
    }
    // an e-mail link refuses SMS with the very same answer
    const emailLink = await insertTestLink(ctx.db, { method: 'email' });
    const r = await send(emailLink);
    expect(r.statusCode).toBe(401);
    expect(r.body).toBe('Not Authorized');
  });

  it('cancelled and expired links answer with their 401 texts and send nothing', async () => {
    await ctx.db.query(`update link set status = 'cancelled', cancelled_at = now() where id = $1`, [linkId]);
    const res = await send(linkId);
    expect(res.statusCode).toBe(401);
    expect(res.body).toBe('Link has been Cancelled.');
    const expired = await insertTestLink(ctx.db);
    await ctx.db.query(`update link set expires_at = now() - interval '1 minute' where id = $1`, [expired]);
    const res2 = await send(expired);
    expect(res2.statusCode).toBe(401);
    expect(res2.body).toBe('Link Expired.');
    expect((await ctx.db.query('select 1 from outbox_message')).rows.length).toBe(0);
    expect(await auditActions(linkId)).toEqual(['auth.sms.send.refused']);
  });

  it('rejects malformed codes with a 400 and counts nothing', async () => {
    await sendAndReadCode(linkId);
    for (const bad of ['12ab56', '12345', '']) {
      const res = await verify(linkId, bad);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('auth/invalid-verification-code');
    }
    const badLink = await verify('short', '123456');
    expect(badLink.statusCode).toBe(400);
    expect(badLink.json().error).toBe('invalid_request');
    const r = await ctx.db.query<{ attempts: number }>('select attempts from otp_challenge where link_id = $1', [
      linkId,
    ]);
    expect(r.rows[0]!.attempts).toBe(0);
  });

  it('Spanish links get the Spanish SMS, in one GSM-7 segment', async () => {
    const es = await insertTestLink(ctx.db, { language: 'es', phone: '+52 55 1234 5678' });
    expect((await send(es)).statusCode).toBe(200);
    const msg = (await lastMessageTo(ctx.db, '+52 55 1234 5678'))!;
    expect(msg.body_text).toMatch(
      /^Bella Vista Plastic Surgery: su clave de acceso es \d{6}\. Vence en 10 minutos\. No la comparta con nadie\.$/,
    );
    expect(msg.body_text.length).toBeLessThan(160);
    expect(msg.body_text).toMatch(/^[A-Za-z0-9 .,:@!?'"()\-+/\n]*$/);
  });

  it('writes the SMS in the language the patient uses on /auth (lng), not only the link’s', async () => {
    const en = await insertTestLink(ctx.db, { language: 'en', phone: '+1 555 010 4242' });
    expect((await send(en, { lng: 'es' })).statusCode).toBe(200);
    const msg = (await lastMessageTo(ctx.db, '+1 555 010 4242'))!;
    expect(msg.body_text).toMatch(/su clave de acceso es \d{6}/);
  });
});
