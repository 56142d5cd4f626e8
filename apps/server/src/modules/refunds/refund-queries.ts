import type { Refund } from '@paylink/shared';
import type { Queryable } from '../../db/client.js';

export interface RefundRow {
  id: string;
  link_id: string;
  payment_id: number;
  /** Migration 0155: set when this reverses a flagged second approval instead of the recorded payment. */
  payment_attempt_id: string | null;
  kind: 'void' | 'return';
  amount_cents: number;
  status: 'pending' | 'succeeded' | 'failed';
  reason: string;
  original_transaction_id: string;
  gateway_transaction_id: string | null;
  failure_code: string | null;
  failure_message: string | null;
  requested_by: string | null;
  created_at: Date;
  completed_at: Date | null;
}

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

export function toRefund(r: RefundRow): Refund {
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
    createdAt: iso(r.created_at)!,
    completedAt: iso(r.completed_at),
  };
}

/**
 * Cents of the recorded payment already given back or on their way (pending rows reserve their amount). Reversals of
 * flagged second approvals give back another charge, so they do not count here.
 */
export async function reservedCents(q: Queryable, paymentId: number): Promise<number> {
  const r = await q.query<{ sum: number }>(
    `select coalesce(sum(amount_cents), 0)::int as sum from refund where payment_id = $1 and status <> 'failed' and payment_attempt_id is null`,
    [paymentId],
  );
  return r.rows[0]!.sum;
}

export async function listRefundsForLink(q: Queryable, linkId: string): Promise<RefundRow[]> {
  const r = await q.query<RefundRow>('select * from refund where link_id = $1 order by created_at, id', [linkId]);
  return r.rows;
}
