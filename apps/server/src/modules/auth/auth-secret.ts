import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../db/client.js';
import { getOrCreateSecret } from '../../lib/secrets.js';

const keys = new WeakMap<Db, Promise<Buffer>>();

/** The HMAC key for codes and sign-in tokens: one per database, shared by every process (app_secret 'auth-otp'). */
function authKey(db: Db): Promise<Buffer> {
  let k = keys.get(db);
  if (!k) {
    k = getOrCreateSecret(db, 'auth-otp').then((v) => Buffer.from(v, 'utf8'));
    k.catch(() => keys.delete(db));
    keys.set(db, k);
  }
  return k;
}

/** HMAC-SHA256 of a code bound to its link, so a stolen table reveals nothing and a code cannot move to another link. */
export async function hashOtp(db: Db, linkId: string, code: string): Promise<string> {
  return createHmac('sha256', await authKey(db))
    .update(`otp\0${linkId}\0${code}`)
    .digest('hex');
}

export async function hashSignInToken(db: Db, token: string): Promise<string> {
  return createHmac('sha256', await authKey(db))
    .update(`email-link\0${token}`)
    .digest('hex');
}

export function sameHash(a: string, b: string): boolean {
  const ab = Buffer.from(a, 'hex');
  const bb = Buffer.from(b, 'hex');
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}
