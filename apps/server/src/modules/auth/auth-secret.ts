import { createHmac, timingSafeEqual } from 'node:crypto';
import { keyRing, type SecretSource } from '../../lib/secret-keys.js';

/**
 * Codes and sign-in tokens are stored only as HMAC-SHA256 with a key from the configuration (PAYLINK_SECRETS_KEY,
 * lib/secret-keys.ts; decision 0013, issue 26): a copy of the database alone does not reproduce them. Checking
 * accepts the previous key too while a rotation runs.
 */
const otpInput = (linkId: string, code: string) => `otp\0${linkId}\0${code}`;
const tokenInput = (token: string) => `email-link\0${token}`;
const hmac = (key: Buffer, input: string) => createHmac('sha256', key).update(input).digest('hex');

/** HMAC-SHA256 of a code bound to its link, so a stolen table reveals nothing and a code cannot move to another link. */
export async function hashOtp(src: SecretSource, linkId: string, code: string): Promise<string> {
  return hmac((await keyRing(src, 'auth-otp')).current.key, otpInput(linkId, code));
}

/** The hashes a stored code may have: under the current key and under the previous one. */
export async function otpHashes(src: SecretSource, linkId: string, code: string): Promise<string[]> {
  const ring = await keyRing(src, 'auth-otp');
  return [ring.current, ...ring.previous].map((k) => hmac(k.key, otpInput(linkId, code)));
}

export async function hashSignInToken(src: SecretSource, token: string): Promise<string> {
  return hmac((await keyRing(src, 'auth-otp')).current.key, tokenInput(token));
}

export async function signInTokenHashes(src: SecretSource, token: string): Promise<string[]> {
  const ring = await keyRing(src, 'auth-otp');
  return [ring.current, ...ring.previous].map((k) => hmac(k.key, tokenInput(token)));
}

export function sameHash(a: string, b: string): boolean {
  const ab = Buffer.from(a, 'hex');
  const bb = Buffer.from(b, 'hex');
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}
