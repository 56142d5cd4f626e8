/**
 * AES-256-CBC in OpenSSL's passphrase format — the format crypto-js's `AES.encrypt(text, passphrase)` writes and
 * redux-persist-transform-encrypt stored (decision 0171) — on the browser's WebCrypto instead of crypto-js:
 *   base64("Salted__" ‖ salt[8] ‖ ciphertext), key ‖ iv = EVP_BytesToKey(MD5, passphrase, salt), PKCS#7 padding.
 * MD5 is only the key-derivation step of that format (WebCrypto has no MD5): @noble/hashes' audited one (decision 0200).
 */
import { md5 } from '@noble/hashes/legacy.js';

export { md5 };

const enc = new TextEncoder();
const SALTED = enc.encode('Salted__');

/** OpenSSL EVP_BytesToKey with MD5, one iteration: 32 key bytes and 16 IV bytes. */
function evpBytesToKey(passphrase: string, salt: Uint8Array): { key: Uint8Array; iv: Uint8Array } {
  const pass = enc.encode(passphrase);
  const out = new Uint8Array(48);
  let prev: Uint8Array = new Uint8Array(0);
  for (let n = 0; n < 48; n += 16) {
    const input = new Uint8Array(prev.length + pass.length + salt.length);
    input.set(prev, 0);
    input.set(pass, prev.length);
    input.set(salt, prev.length + pass.length);
    prev = md5(input);
    out.set(prev, n);
  }
  return { key: out.slice(0, 32), iv: out.slice(32) };
}

function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}
function fromBase64(b64: string): Uint8Array {
  const s = atob(b64);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

async function aesKey(raw: Uint8Array, usage: 'encrypt' | 'decrypt') {
  return crypto.subtle.importKey('raw', raw as BufferSource, { name: 'AES-CBC' }, false, [usage]);
}

export async function encryptText(text: string, passphrase: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(8));
  const { key, iv } = evpBytesToKey(passphrase, salt);
  const ct = new Uint8Array(
    await crypto.subtle.encrypt(
      { name: 'AES-CBC', iv: iv as BufferSource },
      await aesKey(key, 'encrypt'),
      enc.encode(text),
    ),
  );
  const out = new Uint8Array(16 + ct.length);
  out.set(SALTED, 0);
  out.set(salt, 8);
  out.set(ct, 16);
  return toBase64(out);
}

/** Throws when the text is not in this format, or the passphrase is wrong (bad padding). */
export async function decryptText(b64: string, passphrase: string): Promise<string> {
  const data = fromBase64(b64);
  if (data.length < 32 || SALTED.some((b, i) => data[i] !== b)) throw new Error('not OpenSSL salted AES');
  const { key, iv } = evpBytesToKey(passphrase, data.slice(8, 16));
  const pt = await crypto.subtle.decrypt(
    { name: 'AES-CBC', iv: iv as BufferSource },
    await aesKey(key, 'decrypt'),
    data.slice(16) as BufferSource,
  );
  return new TextDecoder('utf-8', { fatal: true }).decode(pt);
}
