import type { VoidFlaggedApprovalResult } from '@paylink/shared';
import type { Db } from '../../db/client.js';
import { writeAudit, type Actor } from '../../lib/audit.js';
import { AppError, conflict, notFound } from '../../lib/errors.js';
import { GatewayError, type CardGateway, type GatewayReversal } from '../../providers/gateway/types.js';
import { findLink, type PaymentRow } from '../links/link-queries.js';
import type { PracticeInfo } from '../outbox/practice-info.js';
import { findAttempt } from '../payments/payment-queries.js';
import { emitWebhookEvent } from '../webhooks/emit-event.js';
import { queueRefundReceipt } from './refund-payment.js';
import { toRefund, type RefundRow } from './refund-queries.js';

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

interface FlaggedRow {
  id: string;
  link_id: string;
  payment_id: number;
  status: string;
  transaction_id: string | null;
  needs_attention: boolean;
  attention_reason: string | null;
  attention_resolved_at: Date | null;
  card_brand: string | null;
  card_last4: string | null;
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
  const link = (await findLink(db, attempt.link_id))!;

  let txn;
  try {
    txn = await opts.gateway.queryTransaction(attempt.transaction_id);
  } catch (err) {
    if (err instanceof GatewayError) {
      throw new AppError(
        502,
        'gateway_unavailable',
        'The card gateway is not available right now. Nothing was refunded. Please try again in a few minutes.',
      );
    }
    throw err;
  }
  if (!txn || txn.amountCents === null) {
    throw conflict('gateway_unknown_transaction', 'The card gateway does not know this flagged transaction.');
  }
  const amountCents = txn.amountCents;
  const kind = txn.settled ? 'return' : 'void';

  const refund = await db.transaction(async (tx) => {
    const locked = (await tx.query<FlaggedRow>('select * from payment_attempt where id = $1 for update', [attempt.id]))
      .rows[0]!;
    if (locked.attention_resolved_at) {
      throw conflict('already_resolved', 'This flagged approval has already been resolved.');
    }
    const open = await tx.query(`select 1 from refund where payment_attempt_id = $1 and status <> 'failed'`, [
      locked.id,
    ]);
    if (open.rowCount) {
      throw conflict(
        'reversal_in_progress',
        'A void or refund of this flagged approval is already on its way: check the transaction at the gateway.',
      );
    }
    const r = await tx.query<RefundRow>(
      `insert into refund (link_id, payment_id, payment_attempt_id, kind, amount_cents, reason,
         original_transaction_id, requested_by)
       values ($1, $2, $3, $4, $5, $6, $7, $8) returning *`,
      [link.id, locked.payment_id, locked.id, kind, amountCents, opts.reason, attempt.transaction_id, opts.staffUserId],
    );
    await writeAudit(tx, {
      ...opts.actor,
      action: 'payment.flagged_approval_reversal_requested',
      linkId: link.id,
      details: {
        refundId: r.rows[0]!.id,
        attemptId: locked.id,
        kind,
        amountCents,
        transactionId: attempt.transaction_id,
        reason: opts.reason,
      },
    });
    return r.rows[0]!;
  });

  let answer: GatewayReversal;
  try {
    answer =
      kind === 'void'
        ? await opts.gateway.voidTransaction(refund.original_transaction_id)
        : await opts.gateway.returnTransaction(refund.original_transaction_id, amountCents);
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err;
    if (err.refused) {
      await db.transaction(async (tx) => {
        await tx.query(
          `update refund set status = 'failed', failure_code = $2, failure_message = $3, completed_at = now()
           where id = $1`,
          [refund.id, err.code ?? null, err.message.slice(0, 500)],
        );
        await writeAudit(tx, {
          ...opts.actor,
          action: 'payment.refund_refused',
          linkId: link.id,
          details: { refundId: refund.id, attemptId: attempt.id, kind, code: err.code ?? null, message: err.message },
        });
      });
      throw new AppError(
        409,
        'refund_refused',
        `The card gateway refused the ${kind === 'void' ? 'void' : 'refund'}: ${err.message} Nothing was refunded ` +
          'and the flag stays open.',
      );
    }
    await writeAudit(db, {
      ...opts.actor,
      action: 'payment.refund_outcome_unknown',
      linkId: link.id,
      details: { refundId: refund.id, attemptId: attempt.id, kind, message: err.message },
    });
    throw new AppError(
      502,
      'refund_outcome_unknown',
      'The card gateway did not answer, so we do not know whether the void went through. It is kept as pending and ' +
        'the flag stays open: check the transaction at the gateway before trying again.',
    );
  }

  return db.transaction(async (tx) => {
    const done = (
      await tx.query<RefundRow>(
        `update refund set status = 'succeeded', gateway_transaction_id = $2, completed_at = now()
         where id = $1 returning *`,
        [refund.id, answer.txnId],
      )
    ).rows[0]!;
    await tx.query(`update payment_attempt set attention_resolved_at = now(), updated_at = now() where id = $1`, [
      attempt.id,
    ]);
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
    const paid = (await tx.query<PaymentRow>('select * from payment where id = $1', [done.payment_id])).rows[0]!;
    await queueRefundReceipt(tx, {
      ...opts,
      link,
      paid,
      refund: done,
      // The recorded payment stays as it was: that is what remains paid.
      remainingCents: paid.status === 'approved' ? paid.amount_cents - paid.refunded_cents : 0,
      cardBrand: txn.cardBrand ?? null,
      cardLast4: txn.last4 && /^\d{4}$/.test(txn.last4) ? txn.last4 : null,
    });
    await emitWebhookEvent(tx, 'payment.refunded', {
      linkId: link.id,
      refund: toRefund(done),
      flaggedApproval: { attemptId: attempt.id, reason: attempt.attention_reason ?? null },
    });
    return { ...toRefund(done), attemptId: attempt.id };
  });
}
