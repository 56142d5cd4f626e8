import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { revokeLinkSessions } from '../../http/session-tokens.js';
import { apiHeaders, createTestApp } from '../../../test/support/context.js';
import { codeIn, insertTestLink, lastMessageTo } from '../../../test/support/auth.js';

let app: FastifyInstance;
let ctx: AppContext;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ app, ctx, close } = await createTestApp());
});
afterAll(async () => close());

/** Signs in through the real SMS flow and returns the token and the Set-Cookie header. */
async function signIn(phone: string) {
  const linkId = await insertTestLink(ctx.db, { phone });
  const sent = await app.inject({
    method: 'POST',
    url: '/api/auth/sms/send',
    headers: apiHeaders(ctx),
    payload: { linkId },
  });
  expect(sent.statusCode).toBe(200);
  const code = codeIn((await lastMessageTo(ctx.db, phone))!.body_text)!;
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/sms/verify',
    headers: apiHeaders(ctx),
    payload: { linkId, code },
  });
  expect(res.statusCode).toBe(200);
  return { linkId, token: (res.json() as { token: string }).token };
}

const refresh = (headers: Record<string, string>) =>
  app.inject({ method: 'POST', url: '/api/auth/session/refresh', headers: { ...apiHeaders(ctx), ...headers } });

describe('sessions', () => {
  it('refresh gives a new token and cookie and ends the old session', async () => {
    const { token } = await signIn('5553000001');
    const res = await refresh({ authorization: `Bearer ${token}` });
    expect(res.statusCode).toBe(200);
    const next = res.json() as { token: string; expiresAt: string };
    expect(next.token).not.toBe(token);
    expect(String(res.headers['set-cookie'])).toContain(`jwt_authorization=${next.token}`);
    expect((await refresh({ authorization: `Bearer ${token}` })).statusCode).toBe(401);
    expect((await refresh({ authorization: `Bearer ${next.token}` })).statusCode).toBe(200);
  });

  it('the cookie alone carries the session (after a reload the client has no token in memory)', async () => {
    const { token } = await signIn('5553000002');
    const res = await refresh({ cookie: `jwt_authorization=${token}` });
    expect(res.statusCode).toBe(200);
  });

  it('cancelling a link revokes its sessions: the token gets 401', async () => {
    const { linkId, token } = await signIn('5553000003');
    await ctx.db.query(`update link set status = 'cancelled', cancelled_at = now() where id = $1`, [linkId]);
    await revokeLinkSessions(ctx.db, linkId);
    const res = await refresh({ authorization: `Bearer ${token}` });
    expect(res.statusCode).toBe(401);
  });

  it('an expired session gets 401', async () => {
    const { linkId, token } = await signIn('5553000004');
    await ctx.db.query(`update patient_session set expires_at = now() - interval '1 second' where link_id = $1`, [
      linkId,
    ]);
    expect((await refresh({ authorization: `Bearer ${token}` })).statusCode).toBe(401);
  });

  it('refresh is refused once the link has expired', async () => {
    const { linkId, token } = await signIn('5553000005');
    await ctx.db.query(`update link set expires_at = now() - interval '1 second' where id = $1`, [linkId]);
    const res = await refresh({ authorization: `Bearer ${token}` });
    expect(res.statusCode).toBe(401);
    expect(res.body).toBe('Link Expired.');
  });

  it('logout revokes the session and clears the cookie', async () => {
    const { linkId, token } = await signIn('5553000006');
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { ...apiHeaders(ctx), cookie: `jwt_authorization=${token}` },
    });
    expect(res.statusCode).toBe(204);
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/^jwt_authorization=;/);
    expect(cookie).toMatch(/Path=\/api/);
    expect(cookie).toMatch(/Expires=Thu, 01 Jan 1970/);
    expect((await refresh({ authorization: `Bearer ${token}` })).statusCode).toBe(401);
    const a = await ctx.db.query<{ action: string }>('select action from audit_event where link_id = $1 order by id', [
      linkId,
    ]);
    expect(a.rows.map((r) => r.action)).toContain('auth.logout');
    // logging out again (no valid session) still answers 204
    const again = await app.inject({ method: 'POST', url: '/api/auth/logout', headers: apiHeaders(ctx, token) });
    expect(again.statusCode).toBe(204);
  });

  it('every sign-in call needs the API key', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/auth/sms/send', payload: { linkId: 'x'.repeat(22) } });
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('invalid_api_key');
  });
});
