import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Queryable } from '../../db/client.js';
import { typed } from '../../db/typed.js';
import { writeAudit, SYSTEM_ACTOR } from '../../lib/audit.js';
import type { GatewayTransaction } from '../../providers/gateway/types.js';

/**
 * An approved sale the link's records do not hold, found by reconciliation: a plan instalment approved more than once
 * under one merchant transaction id (issue 41 item 1, decision 0237). It joins billing's queue of flagged approvals
 * exactly as a deposit's second approval does (an attempt row, status 'duplicate', needs_attention), so the same
 * "Void" (voidFlaggedApproval) gives it back. Idempotent per gateway transaction (the attempt's transaction_id is
 * unique); a link without a recorded payment row is audited only.
 */
export async function flagSecondApproval(
  tx: Queryable,
  o: {
    linkId: string;
    gateway: 'converge' | 'sandbox';
    txn: GatewayTransaction;
    amountCents: number;
    details?: Record<string, unknown>;
  },
): Promise<void> {
  const payment = await typed(tx)
    .selectFrom('payment')
    .select('id')
    .where('link_id', '=', o.linkId)
    .orderBy('id')
    .executeTakeFirst();
  const last4 = o.txn.last4 && /^\d{4}$/.test(o.txn.last4) ? o.txn.last4 : null;
  let attemptId: string | null = null;
  if (payment) {
    // Not a sale we started a session for: its own id, derived from the gateway's, in the attempts' alphabet.
    const id = `x${createHash('sha256').update(o.txn.txnId).digest('hex').slice(0, 31)}`;
    const r = await typed(tx)
      .insertInto('payment_attempt')
      .values({
        id,
        link_id: o.linkId,
        payment_id: payment.id,
        amount_cents: o.txn.amountCents ?? o.amountCents,
        gateway: o.gateway,
        status: 'duplicate',
        transaction_id: o.txn.txnId,
        approval_code: o.txn.approvalCode,
        card_brand: o.txn.cardBrand,
        card_last4: last4,
        needs_attention: true,
        attention_reason: 'second_approval',
        reconciled_at: sql`now()`,
      })
      .onConflict((c) => c.doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!r) return; // flagged before
    attemptId = r.id;
  }
  await writeAudit(tx, {
    ...SYSTEM_ACTOR,
    action: 'payment.second_approval_flagged',
    linkId: o.linkId,
    details: {
      ...o.details,
      attemptId,
      transactionId: o.txn.txnId,
      amountCents: o.txn.amountCents,
      reason: 'second_approval',
    },
  });
}
