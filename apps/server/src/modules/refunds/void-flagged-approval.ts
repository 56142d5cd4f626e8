import type { VoidFlaggedApprovalResult } from '@paylink/shared';
import { sql } from 'kysely';
import type { Db, Queryable } from '../../db/client.js';
import { typed } from '../../db/typed.js';
import { writeAudit, type Actor } from '../../lib/audit.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { CardGateway } from '../../providers/gateway/types.js';
import { findLink, findPaymentById } from '../links/index.js';
import type { PracticeInfo } from '../../messages/index.js';
import { findAttempt } from '../payments/index.js';
import { emitWebhookEvent } from '../../messages/emit-event.js';
import { queueRefundReceipt } from './refund-payment.js';
import { markRefundSucceeded, toRefund } from './refund-queries.js';
import { lookUpCharge, reverseCharge, reversalKind } from './reverse-charge.js';

export interface VoidFlaggedApprovalOptions {
  db: Db;
  gateway: CardGateway;
  actor: Actor;
  staffUserId: string;
  attemptId: string;
  reason: string;
  practiceFallback?: Partial<PracticeInfo>;
  timeZone?: string;
}

/**
 * Gives back a second approval flagged by reconciliation (issue 10) in one action: the whole extra charge is voided
 * while unsettled (ccvoid) or returned once settled (ccreturn), recorded as a refund row tied to the attempt, the flag
 * resolved (attention_resolved_at) and audited, and the patient/payor gets a refund receipt. The recorded payment of
 * the link is untouched. Same money safety as refundPayment: the row is written (and checked unique per attempt) under
 * the attempt's row lock before the gateway is called; a lost answer leaves it pending and the flag open.
 */
export async function voidFlaggedApproval(opts: VoidFlaggedApprovalOptions): Promise<VoidFlaggedApprovalResult> {
  const { db } = opts;
  const attempt = await findAttempt(db, opts.attemptId);
  if (!attempt || attempt.status !== 'duplicate' || !attempt.needs_attention || !attempt.transaction_id) {
    throw notFound('No flagged approval with this id.');
  }
  const transactionId = attempt.transaction_id;
  const link = (await findLink(db, attempt.link_id))!;

  const txn = await lookUpCharge(opts.gateway, transactionId);
  if (!txn || txn.amountCents === null) {
    throw new AppError('gateway_unknown_transaction', 'The card gateway does not know this flagged transaction.');
  }
  const amountCents = txn.amountCents;
  const kind = reversalKind(txn.settled);
  // A second approval of a plan instalment (decision 0237) carries that instalment's merchant transaction id: its
  // receipt names the instalment and what stays paid of it, not the deposit.
  const duplicateOf = txn.merchantTxnId ? await installmentSoldUnder(db, link.id, txn.merchantTxnId) : null;

  const refund = await db.transaction(async (tx) => {
    const locked = await typed(tx)
      .selectFrom('payment_attempt')
      .selectAll()
      .where('id', '=', attempt.id)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (locked.attention_resolved_at) {
      throw new AppError('already_resolved', 'This flagged approval has already been resolved.');
    }
    const open = await typed(tx)
      .selectFrom('refund')
      .select('id')
      .where('payment_attempt_id', '=', locked.id)
      .where('status', '<>', 'failed')
      .executeTakeFirst();
    if (open) {
      throw new AppError(
        'reversal_in_progress',
        'A void or refund of this flagged approval is already on its way: check the transaction at the gateway.',
      );
    }
    const row = await typed(tx)
      .insertInto('refund')
      .values({
        link_id: link.id,
        payment_id: locked.payment_id,
        payment_attempt_id: locked.id,
        kind,
        amount_cents: amountCents,
        reason: opts.reason,
        original_transaction_id: transactionId,
        requested_by: opts.staffUserId,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await writeAudit(tx, {
      ...opts.actor,
      action: 'payment.flagged_approval_reversal_requested',
      linkId: link.id,
      details: {
        refundId: row.id,
        attemptId: locked.id,
        kind,
        amountCents,
        transactionId: attempt.transaction_id,
        reason: opts.reason,
      },
    });
    return row;
  });

  const answer = await reverseCharge({ ...opts, linkId: link.id, refund, attemptId: attempt.id });

  return db.transaction(async (tx) => {
    const done = await markRefundSucceeded(tx, refund.id, answer.txnId);
    await typed(tx)
      .updateTable('payment_attempt')
      .set({ attention_resolved_at: sql`now()`, updated_at: sql`now()` })
      .where('id', '=', attempt.id)
      .execute();
    await writeAudit(tx, {
      ...opts.actor,
      action: kind === 'void' ? 'payment.flagged_approval_voided' : 'payment.flagged_approval_refunded',
      linkId: link.id,
      details: {
        refundId: done.id,
        attemptId: attempt.id,
        kind,
        amountCents,
        transactionId: answer.txnId,
        originalTransactionId: done.original_transaction_id,
        attentionReason: attempt.attention_reason ?? null,
        reason: done.reason,
      },
    });
    const paid = (await findPaymentById(tx, done.payment_id))!;
    const installment = duplicateOf && { n: duplicateOf.n, count: duplicateOf.count };
    await queueRefundReceipt(tx, {
      ...opts,
      link,
      paid,
      refund: done,
      // The recorded sale stays as it was: that is what remains paid (the instalment's own charge, else the deposit).
      remainingCents: duplicateOf
        ? duplicateOf.paidCents
        : paid.status === 'approved'
          ? paid.amount_cents - paid.refunded_cents
          : 0,
      cardBrand: txn.cardBrand ?? null,
      cardLast4: txn.last4 && /^\d{4}$/.test(txn.last4) ? txn.last4 : null,
      ...(installment ? { duplicateOf: installment } : {}),
    });
    await emitWebhookEvent(tx, 'payment.refunded', {
      linkId: link.id,
      refund: toRefund(done, installment),
      flaggedApproval: { attemptId: attempt.id, reason: attempt.attention_reason ?? null },
    });
    return { ...toRefund(done, installment), attemptId: attempt.id };
  });
}

/** The link's plan instalment sold under this merchant transaction id: its number, the plan's count, what stays paid. */
async function installmentSoldUnder(
  q: Queryable,
  linkId: string,
  merchantTxnId: string,
): Promise<{ n: number; count: number; paidCents: number } | null> {
  const r = await typed(q)
    .selectFrom('plan_installment as i')
    .innerJoin('payment_plan as pp', 'pp.id', 'i.plan_id')
    .select(['i.n', 'pp.installment_count', 'i.amount_cents', 'i.refunded_cents', 'i.status'])
    .where('pp.link_id', '=', linkId)
    .where('i.merchant_txn_id', '=', merchantTxnId)
    .executeTakeFirst();
  if (!r) return null;
  const paid = r.status === 'paid' || r.status === 'refunded';
  return {
    n: r.n,
    count: r.installment_count,
    paidCents: paid ? Number(r.amount_cents) - Number(r.refunded_cents) : 0,
  };
}
