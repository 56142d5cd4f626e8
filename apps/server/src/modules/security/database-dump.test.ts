import { createDecipheriv, createHash, createHmac } from 'node:crypto';
import { CONSOLE_CSRF_HEADER } from '@paylink/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { ensureStaffUser } from '../../seed/seed-staff.js';
import { resealTotpSecrets } from '../staff/totp.js';
import { currentTotp } from '../staff/totp.js';
import { STAFF_COOKIE } from '../staff/staff-sessions.js';
import { codeIn, insertTestLink, lastMessageTo, oobCodeIn } from '../../../test/support/auth.js';
import { apiHeaders, createTestApp } from '../../../test/support/context.js';

/**
 * Issue 26, Medium: secrets readable in a database dump. The keys that hash sign-in codes and encrypt staff TOTP
 * secrets were kept in the same database (app_secret), so a dump gave both the hashes and their keys. They now come
 * from the configuration (PAYLINK_SECRETS_KEY); nothing in the database opens them.
 */
const KEY = 'k'.repeat(20) + 'secrets-key-from-config';
let t: Awaited<ReturnType<typeof createTestApp>>;
const PASSWORD = 'correct horse battery staple';

beforeAll(async () => {
  t = await createTestApp({ PAYLINK_SECRETS_KEY: KEY });
});
afterAll(async () => t.close());

/** Every value a dump holds that could be a key: each app_secret, as the bytes and as its SHA-256. */
async function keysInTheDump(): Promise<Buffer[]> {
  const r = await t.ctx.db.query<{ value: string }>('select value from app_secret');
  return r.rows.flatMap((x) => [Buffer.from(x.value, 'utf8'), createHash('sha256').update(x.value).digest()]);
}

function opens(sealed: string, key: Buffer): boolean {
  const parts = sealed.split('.');
  const [iv, body, tag] = parts.slice(-3);
  try {
    const d = createDecipheriv('aes-256-gcm', key, Buffer.from(iv!, 'base64url'));
    d.setAuthTag(Buffer.from(tag!, 'base64url'));
    Buffer.concat([d.update(Buffer.from(body!, 'base64url')), d.final()]);
    return true;
  } catch {
    return false;
  }
}

describe('a database dump does not yield live sign-in codes or TOTP secrets', () => {
  it('no key in the database reproduces a live SMS code’s hash or an e-mail sign-in token’s', async () => {
    const linkId = await insertTestLink(t.ctx.db, { phone: '(555) 201-0001' });
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sms/send',
      headers: apiHeaders(t.ctx),
      payload: { linkId },
    });
    expect(sent.statusCode).toBe(200);
    const code = codeIn((await lastMessageTo(t.ctx.db, '(555) 201-0001'))!.body_text)!;
    const stored = (
      await t.ctx.db.query<{ code_hash: string }>('select code_hash from otp_challenge where link_id = $1', [linkId])
    ).rows[0]!.code_hash;
    for (const k of await keysInTheDump()) {
      expect(createHmac('sha256', k).update(`otp\0${linkId}\0${code}`).digest('hex')).not.toBe(stored);
    }
    const mailLink = await insertTestLink(t.ctx.db, { method: 'email', email: 'dump@example.com' });
    const mailed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/email/send',
      headers: apiHeaders(t.ctx),
      payload: { linkId: mailLink, email: 'dump@example.com' },
    });
    expect(mailed.statusCode).toBe(200);
    const token = oobCodeIn((await lastMessageTo(t.ctx.db, 'dump@example.com'))!.body_text)!;
    const tokenHash = (
      await t.ctx.db.query<{ token_hash: string }>('select token_hash from email_signin_token where link_id = $1', [
        mailLink,
      ])
    ).rows[0]!.token_hash;
    for (const k of await keysInTheDump()) {
      expect(createHmac('sha256', k).update(`email-link\0${token}`).digest('hex')).not.toBe(tokenHash);
    }
    // and the right code still signs in
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sms/verify',
      headers: apiHeaders(t.ctx),
      payload: { linkId, code },
    });
    expect(ok.statusCode).toBe(200);
  });

  it('no key in the database opens a staff TOTP secret; a key rotation re-seals them at boot', async () => {
    await ensureStaffUser(t.ctx.db, { email: 'totp-dump@example.com', role: 'admin', password: PASSWORD });
    const signIn = (code?: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/admin/session',
        payload: { email: 'totp-dump@example.com', password: PASSWORD, ...(code ? { code } : {}) },
      });
    const c = (await signIn()).cookies.find((x) => x.name === STAFF_COOKIE)!;
    const h = { cookie: `${STAFF_COOKIE}=${c.value}`, [CONSOLE_CSRF_HEADER]: '1' };
    const { secret } = (await t.app.inject({ method: 'POST', url: '/api/admin/me/2fa/setup', headers: h })).json();
    const on = await t.app.inject({
      method: 'POST',
      url: '/api/admin/me/2fa/enable',
      headers: h,
      payload: { code: currentTotp(secret) },
    });
    expect(on.statusCode).toBe(200);
    const sealed = async () =>
      (
        await t.ctx.db.query<{ totp_secret: string }>(
          `select totp_secret from staff_user where email = 'totp-dump@example.com'`,
        )
      ).rows[0]!.totp_secret;
    const before = await sealed();
    expect(before).not.toContain(secret);
    for (const k of await keysInTheDump()) expect(opens(before, k)).toBe(false);

    // Rotation: the new key is current, the old one previous; the boot re-seals with the new key.
    const rotated = loadConfig({ PAYLINK_SECRETS_KEY: `${KEY}-2`, PAYLINK_SECRETS_KEY_PREVIOUS: KEY });
    expect(await resealTotpSecrets({ db: t.ctx.db, config: rotated })).toBe(1);
    const after = await sealed();
    expect(after).not.toBe(before);
    const withOldKeyOnly = { db: t.ctx.db, config: loadConfig({ PAYLINK_SECRETS_KEY: KEY }) };
    expect(await resealTotpSecrets(withOldKeyOnly).catch((e: Error) => e.message)).toMatch(/PAYLINK_SECRETS_KEY/);
  });

  it('production mode asks for PAYLINK_SECRETS_KEY (at least 32 characters)', () => {
    const prod = {
      PAYLINK_MODE: 'production',
      PUBLIC_URL: 'https://pay.example.com',
      SIGN_ORIGIN: 'https://sign.example.com',
      PAYLINK_API_KEY: 'k'.repeat(32),
      PAYLINK_SESSION_SECRET: 's'.repeat(32),
      TWILIO_ACCOUNT_SID: 'AC1',
      TWILIO_AUTH_TOKEN: 'x',
      TWILIO_FROM: '+15550000000',
      SMTP_HOST: 'localhost',
      TURNSTILE_SECRET_KEY: 'x',
      TURNSTILE_SITE_KEY: 'x',
      CONVERGE_MERCHANT_ID: 'm',
      CONVERGE_USER_ID: 'u',
      CONVERGE_PIN: 'p',
    };
    expect(() => loadConfig(prod)).toThrow(/PAYLINK_SECRETS_KEY is required in production mode/);
    expect(() => loadConfig({ ...prod, PAYLINK_SECRETS_KEY: 'short' })).toThrow(/at least 32 characters/);
    expect(loadConfig({ ...prod, PAYLINK_SECRETS_KEY: KEY }).mode).toBe('production');
  });
});
