import { createHmac } from 'node:crypto';

/**
 * An authenticator app for tests: RFC 6238 TOTP (HMAC-SHA1, 30-second steps, 6 digits) from a base32 secret, as the
 * console's two-factor enrolment hands out (otpauth://totp/…?secret=…). Written from the RFC, not with the server's
 * library, so a test that signs in with it checks the server's codes against the standard.
 */
export function base32Decode(secret: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const clean = secret.toUpperCase().replace(/[\s=-]/g, '');
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of clean) {
    const i = alphabet.indexOf(ch);
    if (i < 0) throw new Error(`not base32: ${ch}`);
    value = (value << 5) | i;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** The 30-second step a moment falls in. */
export const totpStep = (at = Date.now()) => Math.floor(at / 1000 / 30);

export function totpCode(secret: string, step = totpStep()): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac('sha1', base32Decode(secret)).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const n = (mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return String(n).padStart(6, '0');
}
