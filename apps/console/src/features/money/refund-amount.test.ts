import { describe, expect, it } from 'vitest';
import { refundBodySchema } from '../../shared/api/contract';
import { checkRefundAmount, remainingCents, toRefundBody } from './refund-amount';

describe('what is left to refund', () => {
  it('is paid minus refunded in whole cents, where dollars in floating point are off', () => {
    // 100.1 - 0.2 is 99.89999999999999 in floating point.
    expect(remainingCents({ amount: 100.1, refunded: 0.2 })).toBe(9_990);
    expect(remainingCents({ amount: 0.3, refunded: 0.1 })).toBe(20);
    expect(remainingCents({ amount: 1250, refunded: 0 })).toBe(125_000);
  });

  it('is never below zero', () => {
    expect(remainingCents({ amount: 100, refunded: 100 })).toBe(0);
    expect(remainingCents({ amount: 100, refunded: 120 })).toBe(0);
  });
});

describe('the refund amount typed in the dialog', () => {
  const left = 15_000; // $150.00

  it('empty means everything that is left', () => {
    expect(checkRefundAmount('', left)).toEqual({ cents: left, problem: null });
    expect(checkRefundAmount('   ', left)).toEqual({ cents: left, problem: null });
  });

  it('reads dollars and cents exactly, with or without a dollar sign', () => {
    expect(checkRefundAmount('120', left)).toEqual({ cents: 12_000, problem: null });
    expect(checkRefundAmount('120.5', left)).toEqual({ cents: 12_050, problem: null });
    expect(checkRefundAmount(' $0.29 ', left)).toEqual({ cents: 29, problem: null });
    expect(checkRefundAmount('150.00', left)).toEqual({ cents: 15_000, problem: null });
  });

  it('refuses what is not an amount, and zero', () => {
    for (const text of ['abc', '0', '0.00', '-5', '12.345', '1,200', '12.', '$']) {
      expect(checkRefundAmount(text, left), text).toEqual({ cents: null, problem: 'amountInvalid' });
    }
  });

  it('refuses more than is left, by one cent', () => {
    expect(checkRefundAmount('150.01', left)).toEqual({ cents: null, problem: 'amountTooHigh' });
    expect(checkRefundAmount('1', 0)).toEqual({ cents: null, problem: 'amountTooHigh' });
  });
});

describe('the refund request body', () => {
  it('sends dollars with two decimals and the trimmed reason, and no amount for "everything left"', () => {
    expect(toRefundBody({ amount: '$120.50', reason: '  duplicate charge ' })).toEqual({
      amount: 120.5,
      reason: 'duplicate charge',
    });
    expect(toRefundBody({ amount: '0.29', reason: 'x' })).toEqual({ amount: 0.29, reason: 'x' });
    expect(toRefundBody({ amount: ' ', reason: 'all of it' })).toEqual({ reason: 'all of it' });
  });

  it('is what the server accepts', () => {
    for (const amount of ['0.01', '0.29', '120.5', '999999.99', '']) {
      expect(refundBodySchema.safeParse(toRefundBody({ amount, reason: 'r' })).success, amount).toBe(true);
    }
  });
});
