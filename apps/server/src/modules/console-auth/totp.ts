import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { authenticator } from 'otplib';
import type { Db, Queryable } from '../../db/client.js';
import { getOrCreateSecret } from '../../lib/secrets.js';

/**
 * TOTP (RFC 6238, 6 digits, 30 s) with otplib (docs/decisions/0132). A code is accepted one step either side of now
 * (clock drift) and only once: the step of the last accepted code is stored and older or equal steps are refused.
 * Secrets are stored AES-256-GCM encrypted with a per-database key (app_secret 'staff-totp').
 */
const totp = authenticator.clone({ window: 1, step: 30, digits: 6 });
const keys = new WeakMap<Queryable, Promise<Buffer>>();

function key(db: Db): Promise<Buffer> {
  let k = keys.get(db);
  if (!k) {
    k = getOrCreateSecret(db, 'staff-totp').then((v) => createHash('sha256').update(v).digest());
    k.catch(() => keys.delete(db));
    keys.set(db, k);
  }
  return k;
}

export async function sealSecret(db: Db, secret: string): Promise<string> {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', await key(db), iv);
  const body = Buffer.concat([c.update(secret, 'utf8'), c.final()]);
  return ['v1', iv.toString('base64url'), body.toString('base64url'), c.getAuthTag().toString('base64url')].join('.');
}

export async function openSecret(db: Db, sealed: string): Promise<string> {
  const [v, iv, body, tag] = sealed.split('.');
  if (v !== 'v1' || !iv || !body || !tag) throw new Error('unreadable two-factor secret');
  const d = createDecipheriv('aes-256-gcm', await key(db), Buffer.from(iv, 'base64url'));
  d.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([d.update(Buffer.from(body, 'base64url')), d.final()]).toString('utf8');
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
export function newRecoveryCodes(n = 10): string[] {
  return Array.from({ length: n }, () => {
    const b = randomBytes(10);
    const s = Array.from(b, (x) => ALPHABET[x % ALPHABET.length]).join('');
    return `${s.slice(0, 5)}-${s.slice(5)}`;
  });
}
const normaliseRecoveryCode = (code: string) => code.trim().toLowerCase().replace(/[\s-]/g, '');
export const hashRecoveryCode = (code: string) =>
  createHash('sha256')
    .update(`recovery\0${normaliseRecoveryCode(code)}`)
    .digest('hex');
