import { CONSOLE_CSRF_HEADER } from '@paylink/shared';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureStaffUser } from '../../seed/seed-staff.js';
import { createTestApp } from '../../../test/support/context.js';
import { STAFF_COOKIE } from './staff-sessions.js';
import { currentTotp } from './totp.js';

// Issue 29, item 3: staff change their password, an admin resets one, and "forgot password" by e-mail.
let t: Awaited<ReturnType<typeof createTestApp>>;
const PASSWORD = 'correct horse battery staple';
const NEW_PASSWORD = 'a brand new passphrase 42';
const ORIGIN = 'https://pay.example.com';
let ipCounter = 10;
/** Each test signs in from its own address, so the sign-in delay of one does not reach another. */
const nextIp = () => `198.51.100.${ipCounter++}`;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: ORIGIN });
  for (const [email, role] of [
    ['changer@example.com', 'coordinator'],
    ['twofa-changer@example.com', 'coordinator'],
    ['reset-me@example.com', 'coordinator'],
    ['forgetful@example.com', 'coordinator'],
    ['limited@example.com', 'coordinator'],
    ['boss@example.com', 'admin'],
  ] as const) {
    await ensureStaffUser(t.ctx.db, { email, role, password: PASSWORD, name: email.split('@')[0] });
  }
});
afterAll(async () => t.close());

const call = (o: InjectOptions) => t.app.inject(o);
async function signIn(email: string, password = PASSWORD, ip = nextIp(), code?: string) {
  const r = await call({
    method: 'POST',
    url: '/api/admin/session',
    payload: { email, password, ...(code ? { code } : {}) },
    remoteAddress: ip,
  });
  const c = r.cookies.find((x) => x.name === STAFF_COOKIE);
  return { r, cookie: c ? `${STAFF_COOKIE}=${c.value}` : '' };
}
const as = (cookie: string) => ({ cookie, [CONSOLE_CSRF_HEADER]: '1', origin: ORIGIN });
const cliToken = async (email: string, password = PASSWORD, code?: string) =>
  (
    await call({
      method: 'POST',
      url: '/api/admin/login',
      payload: { email, password, ...(code ? { code } : {}) },
      remoteAddress: nextIp(),
    })
  ).json().token as string;
const board = (headers: Record<string, string>) => call({ url: '/api/admin/links', headers });
const changePassword = (cookie: string, payload: Record<string, unknown>, ip = nextIp()) =>
  call({ method: 'POST', url: '/api/admin/me/password', headers: as(cookie), payload, remoteAddress: ip });
const auditRows = async (action: string) =>
  (
    await t.ctx.db.query<{ actor_id: string | null; details: Record<string, unknown> }>(
      `select actor_id, details from audit_event where action = $1 order by id`,
      [action],
    )
  ).rows;
const mails = async (to: string, kind: string) =>
  (
    await t.ctx.db.query<{ subject: string; body_text: string }>(
      `select subject, body_text from outbox_message where to_address = $1 and kind = $2 order by created_at`,
      [to, kind],
    )
  ).rows;
const userId = async (email: string) =>
  (await t.ctx.db.query<{ id: string }>('select id from staff_user where email = $1', [email])).rows[0]!.id;

describe('change my password', () => {
  it('refuses a wrong current password, a weak new one and the same one, with a message each', async () => {
    const { cookie } = await signIn('changer@example.com');
    const wrong = await changePassword(cookie, { currentPassword: 'not it at all', newPassword: NEW_PASSWORD });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ error: 'invalid_credentials', message: 'The current password is wrong.' });
    const weak = await changePassword(cookie, { currentPassword: PASSWORD, newPassword: 'short' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().message).toMatch(/at least 12 characters/);
    const same = await changePassword(cookie, { currentPassword: PASSWORD, newPassword: PASSWORD });
    expect(same.statusCode).toBe(400);
    expect(same.json().error).toBe('password_reused');
    // Still the old password.
    expect((await signIn('changer@example.com')).r.json().status).toBe('signed_in');
    expect(await auditRows('staff.password_change_failed')).toHaveLength(1);
  });

  it('changes it, keeps this session, ends the others and the CLI tokens, e-mails the user and audits', async () => {
    const mine = await signIn('changer@example.com');
    const other = await signIn('changer@example.com');
    const token = await cliToken('changer@example.com');
    const ok = await changePassword(mine.cookie, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
    expect(ok.statusCode).toBe(204);
    expect((await board({ cookie: mine.cookie })).statusCode).toBe(200);
    expect((await board({ cookie: other.cookie })).statusCode).toBe(401);
    expect((await board({ authorization: `Bearer ${token}` })).statusCode).toBe(401);
    expect((await signIn('changer@example.com')).r.statusCode).toBe(401);
    expect((await signIn('changer@example.com', NEW_PASSWORD)).r.json().status).toBe('signed_in');
    const [row] = await auditRows('staff.password_changed');
    expect(row).toMatchObject({ actor_id: await userId('changer@example.com'), details: { tokens: 1 } });
    // The other sessions of this and the earlier test ended; this one goes on.
    expect(row!.details.sessions).toBeGreaterThanOrEqual(1);
    const [mail] = await mails('changer@example.com', 'staff-password-changed');
    expect(mail!.subject).toMatch(/password was changed/);
    expect(mail!.body_text).toMatch(/Se cambió|se cambió/);
  });

  it('asks for the two-factor code when two-factor is on', async () => {
    const { cookie } = await signIn('twofa-changer@example.com');
    const h = as(cookie);
    const { secret } = (await call({ method: 'POST', url: '/api/admin/me/2fa/setup', headers: h })).json();
    const on = await call({
      method: 'POST',
      url: '/api/admin/me/2fa/enable',
      headers: h,
      payload: { code: currentTotp(secret) },
    });
    expect(on.statusCode).toBe(200);
    const missing = await changePassword(cookie, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toBe('invalid_code');
    const wrong = await changePassword(cookie, {
      currentPassword: PASSWORD,
      newPassword: NEW_PASSWORD,
      code: '000000',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe('invalid_code');
    const recovery = on.json().recoveryCodes[0];
    const ok = await changePassword(cookie, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD, code: recovery });
    expect(ok.statusCode).toBe(204);
  });
});

describe("an admin's password reset", () => {
  it('answers a temporary password once, ends sessions and tokens, and forces a change at the next sign-in', async () => {
    const admin = await signIn('boss@example.com');
    const victim = await signIn('reset-me@example.com');
    const token = await cliToken('reset-me@example.com');
    const id = await userId('reset-me@example.com');
    const notAdmin = await call({
      method: 'POST',
      url: `/api/admin/staff/${id}/reset-password`,
      headers: as(victim.cookie),
    });
    expect(notAdmin.statusCode).toBe(403);
    const own = await call({
      method: 'POST',
      url: `/api/admin/staff/${await userId('boss@example.com')}/reset-password`,
      headers: as(admin.cookie),
    });
    expect(own.statusCode).toBe(400);

    const r = await call({ method: 'POST', url: `/api/admin/staff/${id}/reset-password`, headers: as(admin.cookie) });
    expect(r.statusCode).toBe(200);
    const { temporaryPassword } = r.json();
    expect(temporaryPassword.length).toBeGreaterThanOrEqual(12);
    expect((await board({ cookie: victim.cookie })).statusCode).toBe(401);
    expect((await board({ authorization: `Bearer ${token}` })).statusCode).toBe(401);
    expect((await signIn('reset-me@example.com')).r.statusCode).toBe(401);

    const again = await signIn('reset-me@example.com', temporaryPassword);
    expect(again.r.json().session).toMatchObject({ passwordChangeRequired: true });
    const refused = await board({ cookie: again.cookie });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('password_change_required');
    expect((await call({ url: '/api/admin/session', headers: { cookie: again.cookie } })).statusCode).toBe(200);
    const cli = await call({
      method: 'POST',
      url: '/api/admin/login',
      payload: { email: 'reset-me@example.com', password: temporaryPassword },
      remoteAddress: nextIp(),
    });
    expect(cli.statusCode).toBe(403);
    expect(cli.json().error).toBe('password_change_required');

    const changed = await changePassword(again.cookie, {
      currentPassword: temporaryPassword,
      newPassword: NEW_PASSWORD,
    });
    expect(changed.statusCode).toBe(204);
    expect((await board({ cookie: again.cookie })).statusCode).toBe(200);
    const session = await call({ url: '/api/admin/session', headers: { cookie: again.cookie } });
    expect(session.json().passwordChangeRequired).toBe(false);

    const [audit] = await auditRows('staff.password_reset');
    expect(audit).toMatchObject({
      actor_id: await userId('boss@example.com'),
      details: { staffUserId: id, sessions: 1 },
    });
    expect(JSON.stringify(audit)).not.toContain(temporaryPassword);
  });
});

describe('forgot password', () => {
  const ask = (email: string, ip = '203.0.113.5') =>
    call({ method: 'POST', url: '/api/admin/password-reset', payload: { email }, remoteAddress: ip });
  const complete = (token: string, newPassword = NEW_PASSWORD) =>
    call({ method: 'POST', url: '/api/admin/password-reset/complete', payload: { token, newPassword } });
  const tokenIn = (text: string) => /reset-password#token=(plr_[A-Za-z0-9_-]+)/.exec(text)![1]!;

  it('answers the same for an unknown address and e-mails a link to a known one', async () => {
    const unknown = await ask('nobody@example.com');
    const known = await ask('Forgetful@Example.com');
    expect(unknown.statusCode).toBe(200);
    expect(known.statusCode).toBe(200);
    expect(unknown.body).toBe(known.body);
    expect(await mails('nobody@example.com', 'staff-password-reset')).toHaveLength(0);
    const [mail] = await mails('forgetful@example.com', 'staff-password-reset');
    expect(mail!.body_text).toContain(`${ORIGIN}/console/reset-password#token=plr_`);
    const stored = await t.ctx.db.query<{ token_hash: string }>(
      `select token_hash from staff_password_reset where email = 'forgetful@example.com'`,
    );
    expect(stored.rows[0]!.token_hash).not.toContain(tokenIn(mail!.body_text));
    const requested = await auditRows('staff.password_reset_requested');
    expect(requested.map((r) => r.details)).toEqual([
      { email: 'nobody@example.com', sent: false, refused: 'unknown_address' },
      { email: 'forgetful@example.com', sent: true },
    ]);
  });

  it('sets the password once with the link, ends every session, and refuses the link again', async () => {
    const session = await signIn('forgetful@example.com');
    const [mail] = await mails('forgetful@example.com', 'staff-password-reset');
    const token = tokenIn(mail!.body_text);
    expect((await complete(token, 'too short')).statusCode).toBe(400);
    const done = await complete(token);
    expect(done.statusCode).toBe(204);
    expect((await board({ cookie: session.cookie })).statusCode).toBe(401);
    expect((await signIn('forgetful@example.com', NEW_PASSWORD)).r.json().status).toBe('signed_in');
    const reused = await complete(token, 'yet another passphrase 7');
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toMatchObject({ error: 'reset_link_invalid' });
    expect(reused.json().message).toMatch(/already used, has expired/);
    expect((await signIn('forgetful@example.com', NEW_PASSWORD)).r.json().status).toBe('signed_in');
    expect(await auditRows('staff.password_reset_completed')).toHaveLength(1);
    expect(await auditRows('staff.password_reset_refused')).toHaveLength(1);
    expect(await mails('forgetful@example.com', 'staff-password-changed')).toHaveLength(1);
  });

  it('refuses an expired link', async () => {
    await ask('forgetful@example.com', '203.0.113.6');
    const all = await mails('forgetful@example.com', 'staff-password-reset');
    const token = tokenIn(all.at(-1)!.body_text);
    await t.ctx.db.query(
      `update staff_password_reset set expires_at = now() - interval '1 second'
       where email = 'forgetful@example.com' and used_at is null`,
    );
    const r = await complete(token, 'expired link passphrase 9');
    expect(r.statusCode).toBe(400);
    expect(r.json().error).toBe('reset_link_invalid');
  });

  it('sends at most 3 links an hour per address (same answer after) and takes 10 requests an hour per IP', async () => {
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push((await ask('limited@example.com', `203.0.113.${20 + i}`)).body);
    expect(new Set(answers).size).toBe(1);
    expect(await mails('limited@example.com', 'staff-password-reset')).toHaveLength(3);
    for (let i = 0; i < 10; i++) expect((await ask(`someone${i}@example.com`, '203.0.113.99')).statusCode).toBe(200);
    const limited = await ask('limited@example.com', '203.0.113.99');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ error: 'too_many_attempts' });
    expect(limited.json().retryAfterSeconds).toBeGreaterThan(0);
  });
});
