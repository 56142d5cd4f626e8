import type { Refund } from '@paylink/shared';
import { sql } from 'kysely';
import type { Queryable } from '../../db/client.js';
import { typed, type Row } from '../../db/typed.js';

/** payment_attempt_id (migration 0155): set when this reverses a flagged second approval instead of the recorded payment. */
export type RefundRow = Row<'refund'>;

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

/** `installment`: the plan instalment it gives back (the read model of money movements names it), else null. */
export function toRefund(
  r: Pick<
    RefundRow,
    | 'id'
    | 'link_id'
    | 'kind'
    | 'amount_cents'
    | 'status'
    | 'reason'
    | 'original_transaction_id'
    | 'gateway_transaction_id'
    | 'failure_message'
    | 'requested_by'
    | 'payment_attempt_id'
    | 'created_at'
    | 'completed_at'
  >,
  installment: Refund['installment'] = null,
): Refund {
  return {
    id: r.id,
    linkId: r.link_id,
    kind: r.kind,
    amount: r.amount_cents / 100,
    status: r.status,
    reason: r.reason,
    originalTransactionId: r.original_transaction_id,
    transactionId: r.gateway_transaction_id,
    failureMessage: r.failure_message,
    requestedBy: r.requested_by,
    flaggedAttemptId: r.payment_attempt_id ?? null,
    installment,
    createdAt: iso(r.created_at)!,
    completedAt: iso(r.completed_at),
  };
}

/**
 * Cents of the recorded payment already given back or on their way (pending rows reserve their amount). Reversals of
 * flagged second approvals give back another charge, so they do not count here.
 */
export async function reservedCents(q: Queryable, paymentId: number): Promise<number> {
  const r = await typed(q)
    .selectFrom('refund')
    .select(sql<number>`coalesce(sum(amount_cents), 0)::int`.as('sum'))
    .where('payment_id', '=', paymentId)
    .where('status', '<>', 'failed')
    .where('payment_attempt_id', 'is', null)
    // An instalment's refund gives back that instalment's sale, not the deposit (refund-installment.ts).
    .where('plan_installment_id', 'is', null)
    .executeTakeFirstOrThrow();
  return r.sum;
}

/** Cents of a plan instalment's sale already given back or on their way (pending rows reserve their amount). */
export async function reservedInstallmentCents(q: Queryable, installmentId: string): Promise<number> {
  const r = await typed(q)
    .selectFrom('refund')
    .select(sql<number>`coalesce(sum(amount_cents), 0)::int`.as('sum'))
    .where('plan_installment_id', '=', installmentId)
    .where('status', '<>', 'failed')
    .executeTakeFirstOrThrow();
  return r.sum;
}

export async function listRefundsForLink(q: Queryable, linkId: string): Promise<RefundRow[]> {
  return typed(q)
    .selectFrom('refund')
    .selectAll()
    .where('link_id', '=', linkId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** The gateway refused: the reservation is released. */
export async function markRefundFailed(q: Queryable, id: string, failure: { code: string | null; message: string }) {
  await typed(q)
    .updateTable('refund')
    .set({
      status: 'failed',
      failure_code: failure.code,
      failure_message: failure.message.slice(0, 500),
      completed_at: sql`now()`,
    })
    .where('id', '=', id)
    .execute();
}

export async function markRefundSucceeded(q: Queryable, id: string, gatewayTransactionId: string): Promise<RefundRow> {
  return typed(q)
    .updateTable('refund')
    .set({ status: 'succeeded', gateway_transaction_id: gatewayTransactionId, completed_at: sql`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}
