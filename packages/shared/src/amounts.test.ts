import { describe, expect, it } from 'vitest';
import { centsToDecimalString, dollarsToCents, parseDollarsToCents, parseTypedDollarsToCents } from './amounts.js';

describe('cents helpers', () => {
  it('parseDollarsToCents reads whole dollars and up to two decimals exactly', () => {
    expect(parseDollarsToCents('500')).toBe(50_000);
    expect(parseDollarsToCents('500.5')).toBe(50_050);
    expect(parseDollarsToCents(' 500.05 ')).toBe(50_005);
    // 0.29 * 100 is 28.999999999999996 in floating point: the digits are read, not multiplied.
    expect(parseDollarsToCents('0.29')).toBe(29);
    expect(parseDollarsToCents('0')).toBe(0);
  });

  it('parseDollarsToCents refuses anything but a plain non-negative amount', () => {
    for (const text of ['', '.5', '5.', '5.123', '-5', '1,200', '$5', '5 00', 'abc', '1e3', '1234567890']) {
      expect(parseDollarsToCents(text), text).toBeNull();
    }
  });

  it('parseTypedDollarsToCents also takes a leading dollar sign, as people type it', () => {
    expect(parseTypedDollarsToCents('$120')).toBe(12_000);
    expect(parseTypedDollarsToCents(' $120.50 ')).toBe(12_050);
    expect(parseTypedDollarsToCents('120.5')).toBe(12_050);
    for (const text of ['$', '$$5', '5$', 'US$5', '$-5', '$1,200']) {
      expect(parseTypedDollarsToCents(text), text).toBeNull();
    }
  });

  it('dollarsToCents rounds to the cent; centsToDecimalString writes two decimals', () => {
    expect(dollarsToCents(120.5)).toBe(12_050);
    expect(dollarsToCents(0.29)).toBe(29);
    expect(dollarsToCents(1_000_000)).toBe(100_000_000);
    expect(centsToDecimalString(12_050)).toBe('120.50');
    expect(centsToDecimalString(5)).toBe('0.05');
    expect(centsToDecimalString(-250)).toBe('-2.50');
  });
});
