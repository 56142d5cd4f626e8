import { CONSOLE_CSRF_HEADER, SESSION_EXPIRES_HEADER } from '@paylink/shared';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureStaffUser } from '../../seed/seed-staff.js';
import { createTestApp } from '../../../test/support/context.js';
import { STAFF_COOKIE } from './staff-sessions.js';
import { currentTotp } from './totp.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
const PASSWORD = 'correct horse battery staple';

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://pay.example.com' });
  for (const [email, role] of [
    ['coord@example.com', 'coordinator'],
    ['twofa@example.com', 'coordinator'],
    ['victim@example.com', 'coordinator'],
    ['admin@example.com', 'admin'],
  ] as const) {
    await ensureStaffUser(t.ctx.db, { email, role, password: PASSWORD, name: email.split('@')[0] });
  }
});
afterAll(async () => t.close());

const call = (o: InjectOptions) => t.app.inject(o);
const signIn = (body: Record<string, unknown>, ip = '198.51.100.7') =>
  call({ method: 'POST', url: '/api/admin/session', payload: body, remoteAddress: ip });
const cookieOf = (r: Awaited<ReturnType<typeof signIn>>) => {
  const c = r.cookies.find((x) => x.name === STAFF_COOKIE);
  return c ? `${STAFF_COOKIE}=${c.value}` : '';
};
/** Lets time pass for the sign-in delay: the recorded failures move into the past. */
const waitOut = (seconds: number) =>
  t.ctx.db.query(`update staff_sign_in_failure set at = at - make_interval(secs => $1)`, [seconds]);

describe('console sign-in with a cookie session', () => {
  it('sets an httpOnly, SameSite=Strict, Secure cookie; the cookie and a bearer token both work', async () => {
    const r = await signIn({ email: 'Coord@Example.com', password: PASSWORD });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ status: 'signed_in', session: { user: { email: 'coord@example.com' } } });
    const c = r.cookies.find((x) => x.name === STAFF_COOKIE)!;
    expect(c).toMatchObject({ httpOnly: true, sameSite: 'Strict', secure: true, path: '/api/admin' });
    const idle = (Date.parse(r.json().session.expiresAt) - Date.now()) / 60000;
    expect(idle).toBeGreaterThan(29);
    expect(idle).toBeLessThanOrEqual(30);
    const board = await call({ url: '/api/admin/links', headers: { cookie: cookieOf(r) } });
    expect(board.statusCode).toBe(200);
    expect(Date.parse(board.headers[SESSION_EXPIRES_HEADER] as string)).toBeGreaterThan(Date.now());
    const login = await call({
      method: 'POST',
      url: '/api/admin/login',
      payload: { email: 'coord@example.com', password: PASSWORD },
    });
    expect(login.statusCode).toBe(200);
    const viaToken = await call({
      url: '/api/admin/links',
      headers: { authorization: `Bearer ${login.json().token}` },
    });
    expect(viaToken.statusCode).toBe(200);
  });

  it('refuses a cookie-authenticated change without the console header or from another origin (CSRF)', async () => {
    const cookie = cookieOf(await signIn({ email: 'coord@example.com', password: PASSWORD }));
    const payload = { firstName: 'A', lastName: 'B', phone: '5125550147' };
    const bare = await call({ method: 'POST', url: '/api/admin/links', headers: { cookie }, payload });
    expect(bare.statusCode).toBe(403);
    expect(bare.json().error).toBe('csrf');
    const foreign = await call({
      method: 'POST',
      url: '/api/admin/links',
      headers: { cookie, [CONSOLE_CSRF_HEADER]: '1', origin: 'https://evil.example' },
      payload,
    });
    expect(foreign.statusCode).toBe(403);
    const ok = await call({
      method: 'POST',
      url: '/api/admin/links',
      headers: { cookie, [CONSOLE_CSRF_HEADER]: '1', origin: 'https://pay.example.com' },
      payload,
    });
    expect(ok.statusCode).toBe(201);
  });

  it('times out after 30 idle minutes; background polls do not keep it alive', async () => {
    const cookie = cookieOf(await signIn({ email: 'coord@example.com', password: PASSWORD }));
    const before = await t.ctx.db.query<{ idle_expires_at: Date }>(
      'select idle_expires_at from staff_session order by created_at desc limit 1',
    );
    await call({ url: '/api/admin/links', headers: { cookie, 'x-paylink-background': '1' } });
    const after = await t.ctx.db.query<{ idle_expires_at: Date }>(
      'select idle_expires_at from staff_session order by created_at desc limit 1',
    );
    expect(after.rows[0]!.idle_expires_at.getTime()).toBe(before.rows[0]!.idle_expires_at.getTime());
    // 31 minutes of no activity
    await t.ctx.db.query(
      `update staff_session set idle_expires_at = now() - interval '1 minute' where id =
        (select id from staff_session order by created_at desc limit 1)`,
    );
    const r = await call({ url: '/api/admin/session', headers: { cookie } });
    expect(r.statusCode).toBe(401);
    expect(r.json().error).toBe('session_expired');
  });

  it('signs out (this session) and everywhere (every session and token)', async () => {
    const a = cookieOf(await signIn({ email: 'coord@example.com', password: PASSWORD }));
    const b = cookieOf(await signIn({ email: 'coord@example.com', password: PASSWORD }));
    const out = await call({
      method: 'DELETE',
      url: '/api/admin/session',
      headers: { cookie: a, [CONSOLE_CSRF_HEADER]: '1' },
    });
    expect(out.statusCode).toBe(204);
    expect((await call({ url: '/api/admin/session', headers: { cookie: a } })).statusCode).toBe(401);
    expect((await call({ url: '/api/admin/session', headers: { cookie: b } })).statusCode).toBe(200);
    const token = (
      await call({
        method: 'POST',
        url: '/api/admin/login',
        payload: { email: 'coord@example.com', password: PASSWORD },
      })
    ).json().token;
    const all = await call({
      method: 'POST',
      url: '/api/admin/session/sign-out-everywhere',
      headers: { cookie: b, [CONSOLE_CSRF_HEADER]: '1' },
    });
    expect(all.statusCode).toBe(204);
    expect((await call({ url: '/api/admin/session', headers: { cookie: b } })).statusCode).toBe(401);
    expect((await call({ url: '/api/admin/links', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(
      401,
    );
  });
});

describe('failed sign-ins are slowed down, never locked', () => {
  it('10 wrong passwords from an attacker do not keep the right password out once the short delay passes', async () => {
    // The attacker waits out each delay and keeps guessing.
    for (let i = 0; i < 10; i++) {
      let r = await signIn({ email: 'victim@example.com', password: `wrong-${i}` }, '203.0.113.66');
      if (r.statusCode === 429) {
        await waitOut(r.json().retryAfterSeconds);
        r = await signIn({ email: 'victim@example.com', password: `wrong-${i}` }, '203.0.113.66');
      }
      expect(r.statusCode).toBe(401);
    }
    // The coordinator, from the office: at most half a minute, then in.
    const office = '198.51.100.20';
    const wait = await signIn({ email: 'victim@example.com', password: PASSWORD }, office);
    if (wait.statusCode === 429) {
      expect(wait.json().retryAfterSeconds).toBeLessThanOrEqual(30);
      expect(Number(wait.headers['retry-after'])).toBe(wait.json().retryAfterSeconds);
      await waitOut(wait.json().retryAfterSeconds);
    }
    const r = await signIn({ email: 'victim@example.com', password: PASSWORD }, office);
    expect(r.statusCode).toBe(200);
    expect(r.json().status).toBe('signed_in');
  });

  it('the delay grows per account and IP (1 s, 2 s, 4 s …) and refused tries do not extend it', async () => {
    const ip = '203.0.113.77';
    const seen: number[] = [];
    for (let i = 0; i < 8; i++) {
      const r = await signIn({ email: 'coord@example.com', password: 'nope' }, ip);
      if (r.statusCode === 429) {
        seen.push(r.json().retryAfterSeconds);
        const again = await signIn({ email: 'coord@example.com', password: 'nope' }, ip);
        expect(again.statusCode).toBe(429);
        await waitOut(r.json().retryAfterSeconds);
        i--;
        continue;
      }
      expect(r.statusCode).toBe(401);
    }
    // After 3 free tries: 1 s, 2 s, 4 s, 8 s, 16 s (the account rule caps other IPs at 30 s).
    expect(seen.length).toBeGreaterThanOrEqual(4);
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThanOrEqual(seen[i - 1]!);
    const failed = await t.ctx.db.query(`select 1 from audit_event where action = 'staff.login_failed'`);
    expect(failed.rowCount).toBeGreaterThanOrEqual(18);
    await waitOut(3600);
  });
});

describe('two-factor (TOTP) enrolment and sign-in', () => {
  it('enrols with an otpauth URI and a code, then needs a code (or a recovery code once) to sign in', async () => {
    const cookie = cookieOf(await signIn({ email: 'twofa@example.com', password: PASSWORD }));
    const h = { cookie, [CONSOLE_CSRF_HEADER]: '1' };
    const setup = await call({ method: 'POST', url: '/api/admin/me/2fa/setup', headers: h });
    expect(setup.statusCode, setup.body).toBe(200);
    const { secret, otpauthUri } = setup.json();
    expect(otpauthUri).toMatch(/^otpauth:\/\/totp\/.+secret=/);
    const stored = await t.ctx.db.query<{ totp_pending_secret: string }>(
      `select totp_pending_secret from staff_user where email = 'twofa@example.com'`,
    );
    expect(stored.rows[0]!.totp_pending_secret).not.toContain(secret);
    const wrong = await call({
      method: 'POST',
      url: '/api/admin/me/2fa/enable',
      headers: h,
      payload: { code: '000000' },
    });
    expect(wrong.statusCode).toBe(400);
    const code = currentTotp(secret);
    const on = await call({ method: 'POST', url: '/api/admin/me/2fa/enable', headers: h, payload: { code } });
    expect(on.statusCode).toBe(200);
    const { recoveryCodes } = on.json();
    expect(recoveryCodes).toHaveLength(10);

    const first = await signIn({ email: 'twofa@example.com', password: PASSWORD });
    expect(first.json()).toEqual({ status: 'code_required' });
    expect(cookieOf(first)).toBe('');
    // the code used for enrolment cannot be replayed
    const replay = await signIn({ email: 'twofa@example.com', password: PASSWORD, code });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().error).toBe('invalid_code');
    await waitOut(3600);
    const viaRecovery = await signIn({ email: 'twofa@example.com', password: PASSWORD, code: recoveryCodes[0] });
    expect(viaRecovery.statusCode).toBe(200);
    expect(viaRecovery.json().session.user.twoFactorEnabled).toBe(true);
    const again = await signIn({ email: 'twofa@example.com', password: PASSWORD, code: recoveryCodes[0] });
    expect(again.statusCode).toBe(401);
    await waitOut(3600);
    // The CLI's token sign-in asks for the code too.
    const cli = await call({
      method: 'POST',
      url: '/api/admin/login',
      payload: { email: 'twofa@example.com', password: PASSWORD },
    });
    expect(cli.statusCode).toBe(401);
    expect(cli.json().error).toBe('code_required');
    const status = await call({ url: '/api/admin/me/2fa', headers: { cookie: cookieOf(viaRecovery) } });
    expect(status.json()).toMatchObject({ enabled: true, required: false, recoveryCodesLeft: 9 });
  });

  it('an admin resets a staff user’s two-factor, which ends their sessions', async () => {
    const admin = cookieOf(await signIn({ email: 'admin@example.com', password: PASSWORD }));
    const list = await call({ url: '/api/admin/staff', headers: { cookie: admin } });
    const user = list.json().staff.find((s: { email: string }) => s.email === 'twofa@example.com');
    expect(user).toMatchObject({ twoFactorEnabled: true });
    expect(user.lastSignInAt).toBeTruthy();
    const r = await call({
      method: 'POST',
      url: `/api/admin/staff/${user.id}/reset-2fa`,
      headers: { cookie: admin, [CONSOLE_CSRF_HEADER]: '1' },
    });
    expect(r.statusCode).toBe(200);
    expect(r.json().twoFactorEnabled).toBe(false);
    const plain = await signIn({ email: 'twofa@example.com', password: PASSWORD });
    expect(plain.json().status).toBe('signed_in');
  });
});

describe('two-factor is required in production mode', () => {
  let p: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    p = await createTestApp({
      PAYLINK_MODE: 'production',
      PUBLIC_URL: 'https://pay.example.com',
      SIGN_ORIGIN: 'https://sign.example.com',
      PAYLINK_API_KEY: 'k'.repeat(32),
      PAYLINK_SESSION_SECRET: 's'.repeat(32),
      PAYLINK_SECRETS_KEY: 'c'.repeat(32),
      TWILIO_ACCOUNT_SID: 'AC1',
      TWILIO_AUTH_TOKEN: 'x',
      TWILIO_FROM: '+15550000000',
      SMTP_HOST: 'localhost',
      TURNSTILE_SITE_KEY: 'x',
      TURNSTILE_SECRET_KEY: 'x',
      CONVERGE_MERCHANT_ID: 'm',
      CONVERGE_USER_ID: 'u',
      CONVERGE_PIN: 'p',
    });
    await ensureStaffUser(p.ctx.db, { email: 'new@example.com', role: 'coordinator', password: PASSWORD });
  });
  afterAll(async () => p.close());

  it('a staff user without two-factor gets an enrolment-only session until enrolled', async () => {
    const r = await p.app.inject({
      method: 'POST',
      url: '/api/admin/session',
      payload: { email: 'new@example.com', password: PASSWORD },
    });
    expect(r.json().session.twoFactor).toEqual({ enabled: false, required: true, enrolmentRequired: true });
    const cookie = cookieOf(r);
    const blocked = await p.app.inject({ url: '/api/admin/links', headers: { cookie } });
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json().error).toBe('two_factor_enrolment_required');
    const h = { cookie, [CONSOLE_CSRF_HEADER]: '1' };
    const { secret } = (await p.app.inject({ method: 'POST', url: '/api/admin/me/2fa/setup', headers: h })).json();
    const on = await p.app.inject({
      method: 'POST',
      url: '/api/admin/me/2fa/enable',
      headers: h,
      payload: { code: currentTotp(secret) },
    });
    expect(on.statusCode).toBe(200);
    expect((await p.app.inject({ url: '/api/admin/links', headers: { cookie } })).statusCode).toBe(200);
    const off = await p.app.inject({
      method: 'POST',
      url: '/api/admin/me/2fa/disable',
      headers: h,
      payload: { password: PASSWORD },
    });
    expect(off.statusCode).toBe(409);
    const cli = await p.app.inject({
      method: 'POST',
      url: '/api/admin/login',
      payload: { email: 'new@example.com', password: PASSWORD },
    });
    expect(cli.json().error).toBe('code_required');
  });
});
