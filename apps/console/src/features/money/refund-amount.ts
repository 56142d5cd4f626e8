import { dollarsToCents, parseTypedDollarsToCents } from '@paylink/shared';

/**
 * The refund dialog's money rules, in cents (the API speaks dollars with up to two decimals; a sum or difference of
 * dollars in floating point can be off by a fraction of a cent, integer cents cannot).
 */

/** What is left to refund of a payment: paid minus already refunded, never below zero. */
export function remainingCents(paid: { amount: number; refunded: number }): number {
  return Math.max(0, dollarsToCents(paid.amount) - dollarsToCents(paid.refunded));
}

export type RefundAmountProblem = 'amountInvalid' | 'amountTooHigh';

/**
 * The amount typed in the dialog: empty = everything left; else a positive amount like "120", "120.50" or "$120.50"
 * (the shared parser), at most what is left.
 */
export function checkRefundAmount(
  text: string,
  remaining: number,
): { cents: number; problem: null } | { cents: null; problem: RefundAmountProblem } {
  if (text.trim() === '') return { cents: remaining, problem: null };
  const cents = parseTypedDollarsToCents(text);
  if (cents === null || cents <= 0) return { cents: null, problem: 'amountInvalid' };
  if (cents > remaining) return { cents: null, problem: 'amountTooHigh' };
  return { cents, problem: null };
}

/** The body of POST /api/admin/links/:id/refund: no amount when the field was left empty (the server refunds the rest). */
export function toRefundBody(values: { amount: string; reason: string }): { amount?: number; reason: string } {
  const cents = values.amount.trim() === '' ? null : parseTypedDollarsToCents(values.amount);
  return { reason: values.reason.trim(), ...(cents === null ? {} : { amount: cents / 100 }) };
}
