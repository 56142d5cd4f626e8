import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { authenticator } from 'otplib';
import { databaseKey, keyRing, type SecretSource } from '../../lib/secret-keys.js';
import { forgetSecrets } from '../../lib/secrets.js';

/**
 * TOTP (RFC 6238, 6 digits, 30 s) with otplib (docs/decisions/0132). A code is accepted one step either side of now
 * (clock drift) and only once: the step of the last accepted code is stored and older or equal steps are refused.
 * Secrets are stored AES-256-GCM encrypted with a key from PAYLINK_SECRETS_KEY (lib/secret-keys.ts).
 */
const totp = authenticator.clone({ window: 1, step: 30, digits: 6 });

/**
 * Sealed secrets: `v2.<key id>.<iv>.<body>.<tag>` with a key derived from PAYLINK_SECRETS_KEY (issue 26: nothing in
 * the database opens them), or `v1.<iv>.<body>.<tag>` with the per-database key (sandbox mode without it).
 */
function seal(key: Buffer, secret: string): string[] {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([c.update(secret, 'utf8'), c.final()]);
  return [iv.toString('base64url'), body.toString('base64url'), c.getAuthTag().toString('base64url')];
}

function unseal(key: Buffer, [iv, body, tag]: string[]): string {
  const d = createDecipheriv('aes-256-gcm', key, Buffer.from(iv!, 'base64url'));
  d.setAuthTag(Buffer.from(tag!, 'base64url'));
  return Buffer.concat([d.update(Buffer.from(body!, 'base64url')), d.final()]).toString('utf8');
}

export async function sealSecret(src: SecretSource, secret: string): Promise<string> {
  const ring = await keyRing(src, 'staff-totp');
  if (!ring.fromConfig) return ['v1', ...seal(ring.current.key, secret)].join('.');
  return ['v2', ring.current.id, ...seal(ring.current.key, secret)].join('.');
}

const unknownKey = () =>
  new Error(
    'a two-factor secret is sealed with a key that is neither PAYLINK_SECRETS_KEY nor PAYLINK_SECRETS_KEY_PREVIOUS',
  );

/** Opens a sealed secret; `v1` needs the per-database key (given, or read from the database). */
export async function openSecret(src: SecretSource, sealed: string, v1Key?: Buffer): Promise<string> {
  const parts = sealed.split('.');
  if (parts[0] === 'v1' && parts.length === 4) {
    if (v1Key) return unseal(v1Key, parts.slice(1));
    const ring = await keyRing(
      { db: src.db, config: { PAYLINK_SECRETS_KEY: undefined, PAYLINK_SECRETS_KEY_PREVIOUS: undefined } },
      'staff-totp',
    );
    return unseal(ring.current.key, parts.slice(1));
  }
  if (parts[0] === 'v2' && parts.length === 5) {
    const ring = await keyRing(src, 'staff-totp');
    const key = [ring.current, ...ring.previous].find((k) => k.id === parts[1]);
    if (!key) throw unknownKey();
    return unseal(key.key, parts.slice(2));
  }
  throw new Error('unreadable two-factor secret');
}

/**
 * At boot, with PAYLINK_SECRETS_KEY: every TOTP secret (enabled or pending) not sealed with the current key is opened
 * (per-database key, or PAYLINK_SECRETS_KEY_PREVIOUS) and sealed again with it, in one transaction; then the
 * per-database keys are deleted, so a dump holds no key. Answers how many staff users were re-sealed.
 */
export async function resealTotpSecrets(src: SecretSource): Promise<number> {
  if (!src.config.PAYLINK_SECRETS_KEY) return 0;
  const ring = await keyRing(src, 'staff-totp');
  const prefix = `v2.${ring.current.id}.`;
  return src.db.transaction(async (tx) => {
    const rows = await tx.query<{ id: string; totp_secret: string | null; totp_pending_secret: string | null }>(
      `select id, totp_secret, totp_pending_secret from staff_user
       where (totp_secret is not null and totp_secret not like $1 || '%')
          or (totp_pending_secret is not null and totp_pending_secret not like $1 || '%')
       for update`,
      [prefix],
    );
    const old = await tx.query<{ value: string }>(`select value from app_secret where name = 'staff-totp'`);
    const v1Key = old.rows[0] ? databaseKey(old.rows[0].value, 'staff-totp') : undefined;
    const again = async (v: string | null) =>
      v === null || v.startsWith(prefix) ? v : sealSecret(src, await openSecret(src, v, v1Key));
    for (const r of rows.rows) {
      await tx.query('update staff_user set totp_secret = $2, totp_pending_secret = $3 where id = $1', [
        r.id,
        await again(r.totp_secret),
        await again(r.totp_pending_secret),
      ]);
    }
    // Codes and sign-in tokens are hashed with the configured key too: the per-database keys are no longer needed.
    await tx.query(`delete from app_secret where name in ('staff-totp', 'auth-otp')`);
    forgetSecrets(src.db, ['staff-totp', 'auth-otp']);
    return rows.rows.length;
  });
}

export function newTotpSecret(): string {
  return totp.generateSecret(20);
}

export function otpauthUri(opts: { email: string; issuer: string; secret: string }): string {
  return totp.keyuri(opts.email, opts.issuer, opts.secret);
}

/** The 30-second step a code belongs to, or null when it is wrong. */
export function matchTotp(code: string, secret: string, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totp.checkDelta(code, secret);
  if (delta === null) return null;
  return Math.floor(now / 1000 / 30) + delta;
}

/** For tests and the CLI's sandbox helpers: the current code of a secret. */
export function currentTotp(secret: string): string {
  return totp.generate(secret);
}

// Recovery codes: 10 of xxxxx-xxxxx (lowercase base32); only a SHA-256 is kept.
const ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';
/** `length` random characters of the 32 above (5 bits each, unbiased), in groups of `group` joined by '-'. */
export function randomCode(length: number, group: number): string {
  const s = Array.from(randomBytes(length), (x) => ALPHABET[x % ALPHABET.length]).join('');
  return s.match(new RegExp(`.{1,${group}}`, 'g'))!.join('-');
}
export function newRecoveryCodes(n = 10): string[] {
  return Array.from({ length: n }, () => randomCode(10, 5));
}
const normaliseRecoveryCode = (code: string) => code.trim().toLowerCase().replace(/[\s-]/g, '');
export const hashRecoveryCode = (code: string) =>
  createHash('sha256')
    .update(`recovery\0${normaliseRecoveryCode(code)}`)
    .digest('hex');
