import { describe, expect, it } from 'vitest';
import { DIGITS_REDACTED, findDigitRun, redactDigitRuns, redactDigitRunsDeep } from './digit-runs.js';

describe('the digit-run guard (decision 0240)', () => {
  it('finds card numbers written any usual way, and 7+ digits in a row', () => {
    for (const s of [
      '4111111111111111',
      'card 4111 1111 1111 1111 ending in 1111',
      'card 4111-1111-1111-1111.',
      '3782 822463 10005',
      'ref 1234567',
    ]) {
      expect(findDigitRun(s), s).not.toBeNull();
    }
    expect(redactDigitRuns('Visa 4111 1111 1111 1111 ending in 1111')).toBe(`Visa ${DIGITS_REDACTED} ending in 1111`);
  });

  it('leaves phone numbers, dates, amounts, last fours and ids alone', () => {
    for (const s of [
      'Call (555) 010-0123 or +1 555 010 0123',
      'January 31, 2098: $1,500.00 on 2098-01-31 10:00:00',
      'Visa ending in 0002',
      '011226A15-12345678-1234-5678-9012-345678901234',
      'a3f91234567bc0de',
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0.0.0 Safari/537.36',
    ]) {
      expect(findDigitRun(s), s).toBeNull();
      expect(redactDigitRuns(s)).toBe(s);
    }
  });

  it('redacts every string inside an audit row’s details', () => {
    expect(
      redactDigitRunsDeep({ n: 4111111111111111, reason: 'card 4111111111111111', list: ['x', '1234 5678 9012 3456'] }),
    ).toEqual({ n: 4111111111111111, reason: `card ${DIGITS_REDACTED}`, list: ['x', DIGITS_REDACTED] });
  });
});
