import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { apiHeaders, createTestApp } from '../../../test/support/context.js';
import { insertTestLink, lastMessageTo, oobCodeIn } from '../../../test/support/auth.js';

let app: FastifyInstance;
let ctx: AppContext;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ app, ctx, close } = await createTestApp({ PUBLIC_URL: 'https://pay.example.com' }));
});
afterAll(async () => close());

const ON_FILE = 'Ana.Rivera@Example.com';

const send = (linkId: string, email: string) =>
  app.inject({ method: 'POST', url: '/api/auth/email/send', headers: apiHeaders(ctx), payload: { linkId, email } });
const verify = (linkId: string, oobCode: string) =>
  app.inject({ method: 'POST', url: '/api/auth/email/verify', headers: apiHeaders(ctx), payload: { linkId, oobCode } });
const outboxCount = async () => (await ctx.db.query('select 1 from outbox_message')).rows.length;
const cooldownPassed = (linkId: string) =>
  ctx.db.query(`update auth_send set created_at = created_at - interval '31 seconds' where link_id = $1`, [linkId]);

async function sendAndReadLink(linkId: string) {
  const res = await send(linkId, ON_FILE);
  expect(res.statusCode).toBe(200);
  const msg = (await lastMessageTo(ctx.db, ON_FILE))!;
  return { msg, oobCode: oobCodeIn(msg.body_text)! };
}

describe('E-mail link sign-in', () => {
  let linkId: string;
  beforeEach(async () => {
    linkId = await insertTestLink(ctx.db, { method: 'email', email: ON_FILE });
    await ctx.db.query('delete from outbox_message');
  });

  it('sends a branded link to the address on file when the typed address matches (any case)', async () => {
    const res = await send(linkId, '  ana.rivera@EXAMPLE.com ');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ sent: true });
    const msg = (await lastMessageTo(ctx.db, ON_FILE))!;
    expect(msg.subject).toBe('Sign in to Bella Vista Plastic Surgery');
    const url = new URL(/https:\/\/\S+/.exec(msg.body_text)![0]);
    expect(url.origin + url.pathname).toBe('https://pay.example.com/auth');
    expect(url.searchParams.get('id')).toBe(linkId);
    expect(url.searchParams.get('mode')).toBe('signIn');
    expect(url.searchParams.get('lng')).toBe('en');
    expect(url.searchParams.get('oobCode')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(msg.body_text).toContain('Hello Ana,');
    expect(msg.body_text).toContain('expires in 15 minutes');
    expect(msg.body_html).toContain(`href="${url.toString().replaceAll('&', '&amp;')}"`);
    expect(msg.body_html).toContain('<html lang="en">');
    // only a hash of the token is stored
    const t = await ctx.db.query<{ token_hash: string }>(
      'select token_hash from email_signin_token where link_id = $1',
      [linkId],
    );
    expect(JSON.stringify(t.rows)).not.toContain(url.searchParams.get('oobCode')!);
  });

  it('gives the same answer for a wrong address and sends nothing', async () => {
    const res = await send(linkId, 'someone.else@example.com');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ sent: true });
    expect(await outboxCount()).toBe(0);
    const a = await ctx.db.query<{ action: string }>('select action from audit_event where link_id = $1', [linkId]);
    expect(a.rows.map((r) => r.action)).toEqual(['auth.email.mismatch']);
  });

  it('a wrong address counts toward the same limits, so the limits do not tell either', async () => {
    expect((await send(linkId, 'wrong@example.com')).statusCode).toBe(200);
    const second = await send(linkId, ON_FILE);
    expect(second.statusCode).toBe(429);
    expect(second.json().error).toBe('auth/too-many-requests');
    expect(await outboxCount()).toBe(0);
  });

  it('answers auth/invalid-email for a malformed address', async () => {
    for (const bad of ['not-an-address', '', 'a@b', `${'x'.repeat(250)}@example.com`]) {
      const res = await send(linkId, bad);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'auth/invalid-email' });
    }
    const badCode = await verify(linkId, '');
    expect(badCode.statusCode).toBe(400);
    expect(badCode.json().error).toBe('auth/invalid-action-code');
    expect(await outboxCount()).toBe(0);
  });

  it('opening the link (GET, as a mail scanner does) consumes nothing; the POST then signs in', async () => {
    const { msg, oobCode } = await sendAndReadLink(linkId);
    const path = /https:\/\/pay\.example\.com(\/\S+)/.exec(msg.body_text)![1]!;
    const scanned = await app.inject({ method: 'GET', url: path });
    expect([200, 503]).toContain(scanned.statusCode); // the SPA page (503 when the web app is not built)
    const row = await ctx.db.query<{ consumed_at: Date | null }>(
      'select consumed_at from email_signin_token where link_id = $1',
      [linkId],
    );
    expect(row.rows[0]!.consumed_at).toBeNull();
    expect((await ctx.db.query('select 1 from patient_session where link_id = $1', [linkId])).rows).toHaveLength(0);

    const res = await verify(linkId, oobCode);
    expect(res.statusCode).toBe(200);
    const body = res.json() as { token: string; expiresAt: string };
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toContain(`jwt_authorization=${body.token}`);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\/api/);
    expect(cookie).toMatch(/Secure/); // PUBLIC_URL is https
  });

  it('a link works once', async () => {
    const { oobCode } = await sendAndReadLink(linkId);
    expect((await verify(linkId, oobCode)).statusCode).toBe(200);
    const again = await verify(linkId, oobCode);
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toBe('auth/invalid-action-code');
  });

  it('a link expires after 15 minutes', async () => {
    const { oobCode } = await sendAndReadLink(linkId);
    const life = await ctx.db.query<{ minutes: number }>(
      'select round(extract(epoch from expires_at - created_at) / 60)::int as minutes from email_signin_token where link_id = $1',
      [linkId],
    );
    expect(life.rows[0]!.minutes).toBe(15);
    await ctx.db.query(`update email_signin_token set expires_at = now() - interval '1 second' where link_id = $1`, [
      linkId,
    ]);
    const res = await verify(linkId, oobCode);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('auth/expired-action-code');
  });

  it('a link signs in its own link only, and a made-up code is refused', async () => {
    const { oobCode } = await sendAndReadLink(linkId);
    const other = await insertTestLink(ctx.db, { method: 'email', email: ON_FILE });
    const res = await verify(other, oobCode);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('auth/invalid-action-code');
    const madeUp = await verify(linkId, 'A'.repeat(43));
    expect(madeUp.json().error).toBe('auth/invalid-action-code');
    // still usable by its own link
    expect((await verify(linkId, oobCode)).statusCode).toBe(200);
  });

  it('a cancelled link cannot finish signing in', async () => {
    const { oobCode } = await sendAndReadLink(linkId);
    await ctx.db.query(`update link set status = 'cancelled', cancelled_at = now() where id = $1`, [linkId]);
    const res = await verify(linkId, oobCode);
    expect(res.statusCode).toBe(401);
    expect(res.body).toBe('Link has been Cancelled.');
  });

  it('at most 5 e-mails per link per hour', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await send(linkId, ON_FILE)).statusCode).toBe(200);
      await cooldownPassed(linkId);
    }
    const sixth = await send(linkId, ON_FILE);
    expect(sixth.statusCode).toBe(429);
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
    expect(await outboxCount()).toBe(5);
  });

  it('Spanish links get the Spanish e-mail', async () => {
    const es = await insertTestLink(ctx.db, {
      method: 'email',
      language: 'es',
      email: 'lucia@example.com',
      firstName: 'Lucía',
    });
    expect((await send(es, 'LUCIA@example.com')).statusCode).toBe(200);
    const msg = (await lastMessageTo(ctx.db, 'lucia@example.com'))!;
    expect(msg.subject).toBe('Inicie sesión en Bella Vista Plastic Surgery');
    expect(msg.body_text).toContain('Hola Lucía:');
    expect(msg.body_text).toContain('vence en 15 minutos');
    expect(msg.body_text).toContain('lng=es');
    expect(msg.body_html).toContain('<html lang="es">');
    expect(msg.body_html).toContain('Iniciar sesión');
    expect(msg.body_html).toContain('Este es un mensaje automático');
  });

  it('writes the e-mail in the language the patient uses on /auth (lng), not only the link’s', async () => {
    const en = await insertTestLink(ctx.db, { method: 'email', language: 'en', email: 'pablo@example.com' });
    const r = await app.inject({
      method: 'POST',
      url: '/api/auth/email/send',
      headers: apiHeaders(ctx),
      payload: { linkId: en, email: 'pablo@example.com', lng: 'es' },
    });
    expect(r.statusCode).toBe(200);
    const msg = (await lastMessageTo(ctx.db, 'pablo@example.com'))!;
    expect(msg.subject).toBe('Inicie sesión en Bella Vista Plastic Surgery');
    expect(msg.body_text).toContain('lng=es');
    const bad = await app.inject({
      method: 'POST',
      url: '/api/auth/email/send',
      headers: apiHeaders(ctx),
      payload: { linkId: en, email: 'pablo@example.com', lng: 'fr' },
    });
    expect(bad.statusCode).toBe(400);
  });
});
