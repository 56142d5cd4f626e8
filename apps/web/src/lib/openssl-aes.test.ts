import CryptoJS from 'crypto-js';
import { describe, expect, it } from 'vitest';
import { decryptText, encryptText, md5 } from './openssl-aes';

const hex = (b: Uint8Array) => [...b].map((x) => x.toString(16).padStart(2, '0')).join('');

describe('OpenSSL-format AES on WebCrypto', () => {
  it('computes MD5 (RFC 1321 vectors)', () => {
    const e = new TextEncoder();
    expect(hex(md5(e.encode('')))).toBe('d41d8cd98f00b204e9800998ecf8427e');
    expect(hex(md5(e.encode('abc')))).toBe('900150983cd24fb0d6963f7d28e17f72');
    expect(hex(md5(e.encode('1234567890'.repeat(8))))).toBe('57edf4a22be3c955ac49da2e2107b67a');
  });

  it('round-trips with crypto-js both ways, including non-ASCII text', async () => {
    const text = JSON.stringify({ name: 'José Núñez', amount: '500.00', long: 'x'.repeat(1000) });
    const ours = await encryptText(text, 'pass-phrase');
    expect(ours.startsWith('U2FsdGVkX1')).toBe(true);
    expect(CryptoJS.AES.decrypt(ours, 'pass-phrase').toString(CryptoJS.enc.Utf8)).toBe(text);
    const theirs = CryptoJS.AES.encrypt(text, 'pass-phrase').toString();
    expect(await decryptText(theirs, 'pass-phrase')).toBe(text);
  });

  it('refuses a wrong passphrase and text that is not in the format', async () => {
    const ours = await encryptText('{"a":1}', 'right');
    await expect(decryptText(ours, 'wrong')).rejects.toThrow();
    await expect(decryptText(btoa('plain text, not encrypted at all'), 'right')).rejects.toThrow();
  });
});
