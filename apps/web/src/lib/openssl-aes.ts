/**
 * AES-256-CBC in OpenSSL's passphrase format — the format crypto-js's `AES.encrypt(text, passphrase)` writes and
 * redux-persist-transform-encrypt stored (decision 0171) — on the browser's WebCrypto instead of crypto-js:
 *   base64("Salted__" ‖ salt[8] ‖ ciphertext), key ‖ iv = EVP_BytesToKey(MD5, passphrase, salt), PKCS#7 padding.
 * MD5 is only the key-derivation step of that format (WebCrypto has no MD5), so it lives here in ~30 lines.
 */

const S = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21];
const K = Array.from({ length: 64 }, (_, i) => Math.floor(Math.abs(Math.sin(i + 1)) * 2 ** 32) >>> 0);

export function md5(data: Uint8Array): Uint8Array {
  const len = data.length;
  const words = new Uint32Array((((len + 8) >>> 6) + 1) * 16);
  for (let i = 0; i < len; i++) words[i >> 2]! |= data[i]! << ((i % 4) * 8);
  words[len >> 2]! |= 0x80 << ((len % 4) * 8);
  words[words.length - 2] = (len * 8) >>> 0;
  words[words.length - 1] = Math.floor((len * 8) / 2 ** 32);
  let [a0, b0, c0, d0] = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476];
  for (let o = 0; o < words.length; o += 16) {
    let [a, b, c, d] = [a0, b0, c0, d0];
    for (let i = 0; i < 64; i++) {
      const r = i >> 4;
      const f = r === 0 ? (b & c) | (~b & d) : r === 1 ? (d & b) | (~d & c) : r === 2 ? b ^ c ^ d : c ^ (b | ~d);
      const g = r === 0 ? i : r === 1 ? (5 * i + 1) % 16 : r === 2 ? (3 * i + 5) % 16 : (7 * i) % 16;
      const s = S[r * 4 + (i % 4)]!;
      const x = (a + f + K[i]! + words[o + g]!) | 0;
      [a, d, c] = [d, c, b];
      b = (b + ((x << s) | (x >>> (32 - s)))) | 0;
    }
    [a0, b0, c0, d0] = [(a0 + a) | 0, (b0 + b) | 0, (c0 + c) | 0, (d0 + d) | 0];
  }
  const out = new Uint8Array(16);
  new DataView(out.buffer).setUint32(0, a0, true);
  new DataView(out.buffer).setUint32(4, b0, true);
  new DataView(out.buffer).setUint32(8, c0, true);
  new DataView(out.buffer).setUint32(12, d0, true);
  return out;
}

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
