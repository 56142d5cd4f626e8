import type { Queryable } from '../../db/client.js';
import { typed } from '../../db/typed.js';
import { writeAudit, type Actor } from '../../lib/audit.js';
import { AppError } from '../../lib/errors.js';
import type { RefundRow } from './refund-queries.js';
import { reversalKind } from './reverse-charge.js';

/** The sale a refund gives back, read under its row lock by the caller. */
export interface SaleToRefund {
  linkId: string;
  /** The link's payment: a refund row always names it (plan_installment_id says when an instalment is given back). */
  paymentId: number;
  installmentId?: string;
  /** Cents charged, and cents already given back or on their way (pending refunds reserve their amount). */
  amountCents: number;
  reservedCents: number;
  transactionId: string;
  /** How the refusals name it: "this payment", "instalment 2". */
  name: string;
  /** How the settlement refusal names its sale: "This payment", "This instalment’s sale". */
  saleName: string;
}

/**
 * Reserves a refund of a deposit or an instalment (decision 0150, issue 41): checks that what is reserved or given
 * back plus this amount stays within the sale, and that an unsettled sale is only voided in full, then writes the
 * `pending` refund row that holds the amount and audits the request. Called inside the transaction that holds the
 * sale's row lock, so concurrent refunds never give back more than was paid. Written once for both kinds of sale.
 */
export async function reserveRefund(
  tx: Queryable,
  o: {
    actor: Actor;
    staffUserId: string;
    sale: SaleToRefund;
    /** Absent = everything not yet refunded. */
    amountCents?: number;
    reason: string;
    /** The gateway's answer: has the sale settled? */
    settled: boolean;
    audit: { action: 'payment.refund_requested' | 'installment.refund_requested'; details?: Record<string, unknown> };
  },
): Promise<RefundRow> {
  const { sale } = o;
  const remaining = sale.amountCents - sale.reservedCents;
  if (remaining <= 0) {
    const name = sale.name.charAt(0).toUpperCase() + sale.name.slice(1);
    throw new AppError('fully_refunded', `${name} has already been refunded in full.`);
  }
  const amount = o.amountCents ?? remaining;
  if (amount > remaining) {
    throw new AppError(
      'refund_exceeds_payment',
      `The refund is more than what is left of ${sale.name}: at most $${(remaining / 100).toFixed(2)} can be refunded.`,
    );
  }
  const kind = reversalKind(o.settled);
  if (kind === 'void' && amount !== sale.amountCents) {
    throw new AppError(
      'partial_refund_before_settlement',
      `${sale.saleName} has not settled yet, so it can only be cancelled (voided) in full today. Refund the whole ` +
        'amount now, or refund part of it after the gateway settles the batch (usually the next business day).',
    );
  }
  const row = await typed(tx)
    .insertInto('refund')
    .values({
      link_id: sale.linkId,
      payment_id: sale.paymentId,
      plan_installment_id: sale.installmentId ?? null,
      kind,
      amount_cents: amount,
      reason: o.reason,
      original_transaction_id: sale.transactionId,
      requested_by: o.staffUserId,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await writeAudit(tx, {
    ...o.actor,
    action: o.audit.action,
    linkId: sale.linkId,
    details: {
      refundId: row.id,
      ...o.audit.details,
      kind,
      amountCents: amount,
      reason: o.reason,
      settled: o.settled,
    },
  });
  return row;
}
