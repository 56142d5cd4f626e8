import { paymentRefundState, PaymentSource, type RefundResult } from '@paylink/shared';
import { sql } from 'kysely';
import type { Db, Queryable } from '../../db/client.js';
import { typed } from '../../db/typed.js';
import { writeAudit, type Actor } from '../../lib/audit.js';
import type { CardGateway, GatewayReversal } from '../../providers/gateway/types.js';
import { findPaymentById, type LinkRow, type PaymentRow } from '../links/index.js';
import { enqueueMessage, loadPracticeInfo, type PracticeInfo } from '../../messages/index.js';
import { emitWebhookEvent } from '../../messages/emit-event.js';
import { markRefundSucceeded, reservedCents, toRefund, type RefundRow } from './refund-queries.js';
import { renderRefundReceipt } from './refund-receipt.js';
import { findChargeToRefund } from './refund-options.js';
import { reserveRefund } from './reserve-refund.js';
import { reverseCharge } from './reverse-charge.js';

export interface RefundPaymentOptions {
  db: Db;
  gateway: CardGateway;
  actor: Actor;
  staffUserId: string;
  linkId: string;
  /** Absent = everything not yet refunded. */
  amountCents?: number;
  reason: string;
  practiceFallback?: Partial<PracticeInfo>;
  timeZone?: string;
}

/**
 * Gives money back on a paid link: a void (ccvoid) while the sale is unsettled, a return (ccreturn, full or partial)
 * once it has settled. The settlement state comes from the gateway (txnquery), never from us.
 *
 * Money safety: the amount is reserved by a `pending` refund row written under the payment's row lock, after checking
 * that everything reserved or given back plus this amount stays within the payment — so concurrent requests can never
 * give back more than was paid. The gateway is called outside any transaction; its answer settles the row (succeeded,
 * or failed which releases the reservation). When the answer is lost, the row stays pending (amount still reserved)
 * and staff check the gateway — we never guess that nothing happened.
 */
export async function refundPayment(opts: RefundPaymentOptions): Promise<RefundResult> {
  const { db } = opts;
  const { link, payment, txn } = await findChargeToRefund(opts);
  const settled = txn.settled;

  const refund = await db.transaction(async (tx) => {
    const locked = (await findPaymentById(tx, payment.id, { forUpdate: true }))!;
    return reserveRefund(tx, {
      ...opts,
      sale: {
        linkId: link.id,
        paymentId: locked.id,
        amountCents: locked.amount_cents,
        reservedCents: await reservedCents(tx, locked.id),
        // Checked above (approved payments carry their transaction id; a check constraint says so too).
        transactionId: locked.transaction_id!,
        name: 'this payment',
        saleName: 'This payment',
      },
      settled,
      audit: { action: 'payment.refund_requested' },
    });
  });

  const answer = await reverseCharge({ ...opts, linkId: link.id, refund });
  return db.transaction(async (tx) => finishRefund(tx, { ...opts, link, refund, answer }));
}

async function finishRefund(
  tx: Queryable,
  o: RefundPaymentOptions & { link: LinkRow; refund: RefundRow; answer: GatewayReversal },
): Promise<RefundResult> {
  const { link, refund, answer } = o;
  const done = await markRefundSucceeded(tx, refund.id, answer.txnId);
  const paid = await typed(tx)
    .updateTable('payment')
    .set((eb) => ({ refunded_cents: eb('refunded_cents', '+', refund.amount_cents), updated_at: sql`now()` }))
    .where('id', '=', refund.payment_id)
    .returningAll()
    .executeTakeFirstOrThrow();
  const state = paymentRefundState(paid.amount_cents, paid.refunded_cents);
  await writeAudit(tx, {
    ...o.actor,
    action: refund.kind === 'void' ? 'payment.voided' : 'payment.refunded',
    linkId: link.id,
    details: {
      refundId: refund.id,
      amountCents: refund.amount_cents,
      refundedCents: paid.refunded_cents,
      refundState: state,
      transactionId: answer.txnId,
      originalTransactionId: refund.original_transaction_id,
      reason: refund.reason,
    },
  });
  await queueRefundReceipt(tx, {
    ...o,
    paid,
    refund: done,
    remainingCents: paid.amount_cents - paid.refunded_cents,
    cardBrand: paid.card_brand,
    cardLast4: paid.card_last4,
  });
  await emitWebhookEvent(tx, 'payment.refunded', {
    linkId: link.id,
    refund: toRefund(done),
    payment: { amount: paid.amount_cents / 100, refunded: paid.refunded_cents / 100, refundState: state },
  });
  return {
    ...toRefund(done),
    payment: {
      amount: paid.amount_cents / 100,
      refunded: paid.refunded_cents / 100,
      remaining: (paid.amount_cents - paid.refunded_cents) / 100,
      refundState: state,
    },
  };
}

/** The refund receipt goes where the payment receipt went: the payor's or patient's e-mail, else an SMS. */
export async function queueRefundReceipt(
  tx: Queryable,
  o: Pick<RefundPaymentOptions, 'actor' | 'practiceFallback' | 'timeZone'> & {
    link: LinkRow;
    paid: PaymentRow;
    refund: RefundRow;
    /** What stays paid after this refund (the receipt says it). */
    remainingCents: number;
    /** The card that is credited (a flagged second approval may have used another card). */
    cardBrand: string | null;
    cardLast4: string | null;
    /** A duplicate charge of a plan instalment given back (see RefundReceiptFacts.duplicateOf). */
    duplicateOf?: { n: number; count: number };
  },
): Promise<void> {
  const { link, paid, refund } = o;
  const payorPays = paid.payment_source_id === PaymentSource.Payor;
  const email = (
    payorPays ? paid.payor_email || link.payor_email || link.email : paid.payor_email || link.email
  )?.trim();
  const phone = link.phone?.trim();
  const practice = await loadPracticeInfo(tx, o.practiceFallback);
  const receipt = renderRefundReceipt({
    lang: link.language,
    practice,
    kind: refund.kind,
    amountCents: refund.amount_cents,
    remainingCents: o.remainingCents,
    at: new Date(refund.completed_at!),
    cardBrand: o.cardBrand,
    cardLast4: o.cardLast4,
    originalTransactionId: refund.original_transaction_id,
    refundTransactionId: refund.gateway_transaction_id!,
    timeZone: o.timeZone,
    duplicateOf: o.duplicateOf,
  });
  const recipient = payorPays ? 'payor' : 'patient';
  if (email) {
    const { id } = await enqueueMessage(tx, {
      channel: 'email',
      to: email,
      subject: receipt.subject,
      text: receipt.text,
      html: receipt.html,
      linkId: link.id,
      kind: 'refund-receipt',
    });
    await writeAudit(tx, {
      ...o.actor,
      action: 'payment.refund_receipt_queued',
      linkId: link.id,
      details: { outboxId: id, channel: 'email', recipient, language: link.language, refundId: refund.id },
    });
  } else if (phone) {
    const { id } = await enqueueMessage(tx, {
      channel: 'sms',
      to: phone,
      text: receipt.sms,
      linkId: link.id,
      kind: 'refund-receipt',
    });
    await writeAudit(tx, {
      ...o.actor,
      action: 'payment.refund_receipt_queued',
      linkId: link.id,
      details: { outboxId: id, channel: 'sms', recipient, language: link.language, refundId: refund.id },
    });
  } else {
    await writeAudit(tx, {
      ...o.actor,
      action: 'payment.refund_receipt_skipped',
      linkId: link.id,
      details: { reason: 'no e-mail address or phone on file', refundId: refund.id },
    });
  }
}
