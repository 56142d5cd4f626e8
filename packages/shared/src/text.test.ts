import { describe, expect, it } from 'vitest';
import { cleanName, findControlChars, printable, scrubCardNumbers } from './text.js';

describe('findControlChars', () => {
  it('names the first field holding a control character, nested or in a key', () => {
    expect(findControlChars({ a: 'ok', b: { c: ['x', 'y\u0000'] } })).toBe('b.c.1');
    expect(findControlChars({ ['k\u001b']: 1 })).toBe('k?');
    expect(findControlChars('\u009b')).toBe('_');
  });
  it('lets tabs, newlines and ordinary unicode through', () => {
    expect(findControlChars({ note: 'line 1\nline 2\tTab — ñ 漢字 😀' })).toBeNull();
  });
});

describe('cleanName and printable', () => {
  it('strips escape sequences, C1 controls and bidi overrides from names', () => {
    expect(cleanName('Ana\u001b]0;pwned\u0007 Díaz\u009b2J\u202e')).toBe('Ana ]0;pwned Díaz 2J');
    expect(cleanName('  María \n José ')).toBe('María José');
  });
  it('makes controls visible for a terminal', () => {
    expect(printable('\u001b[2Jx\u0085')).toBe('?[2Jx?');
  });
});

describe('scrubCardNumbers', () => {
  it('masks Luhn-valid card numbers in free text, spaced or dashed', () => {
    expect(scrubCardNumbers('pay with 4111 1111 1111 1111 please')).toBe('pay with ************1111 please');
    expect(scrubCardNumbers('amex 3782-822463-10005')).toBe('amex ************0005');
  });
  it('leaves phone numbers, ZIP codes and non-card digit runs alone', () => {
    for (const t of ['call +52 1 55 1234 5678', '(555) 010-1234', 'ZIP 90210-1234', 'ref 1234567890123']) {
      expect(scrubCardNumbers(t)).toBe(t);
    }
  });
});
