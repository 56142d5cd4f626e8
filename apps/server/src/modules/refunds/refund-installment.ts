import type { PlanView } from '@paylink/shared';
import type { Db, Queryable } from '../../db/client.js';
import { writeAudit, type Actor } from '../../lib/audit.js';
import { AppError, notFound } from '../../lib/errors.js';
import { emitWebhookEvent } from '../../messages/emit-event.js';
import type { PracticeInfo } from '../../messages/index.js';
import type { CardGateway } from '../../providers/gateway/types.js';
import { findLink, findPayment } from '../links/index.js';
import { findPlanByLink, recordInstallmentRefund, showPlan } from '../plans/index.js';
import { queueRefundReceipt } from './refund-payment.js';
import { markRefundSucceeded, reservedInstallmentCents, toRefund } from './refund-queries.js';
import { reserveRefund } from './reserve-refund.js';
import { lookUpCharge, reverseCharge } from './reverse-charge.js';

export interface RefundInstallmentOptions {
  db: Db;
  gateway: CardGateway;
  actor: Actor;
  staffUserId: string;
  linkId: string;
  n: number;
  /** Absent = everything of the instalment not yet refunded. */
  amountCents?: number;
  reason: string;
  practiceFallback?: Partial<PracticeInfo>;
}

interface InstallmentSale {
  id: string;
  n: number;
  amount_cents: string;
  refunded_cents: string;
  status: string;
  gateway_txn_id: string | null;
}

/**
 * Gives back a paid plan instalment (decision 0210) by the deposit's refund rules (refund-payment.ts): the gateway
 * says whether the sale settled (void in full before, return full or partial after); the amount is reserved by a
 * pending refund row under the instalment's row lock, so concurrent refunds never give back more than it was; the
 * gateway is called outside any transaction and its answer settles the row. The instalment becomes `refunded` when
 * all of it is given back, else stays `paid` with `refunded_cents`.
 */
export async function refundInstallment(opts: RefundInstallmentOptions): Promise<{ plan: PlanView }> {
  const { db } = opts;
  const link = await findLink(db, opts.linkId);
  if (!link) throw notFound('No link with this id.');
  const plan = await findPlanByLink(db, link.id);
  if (!plan) throw notFound('This link has no payment plan.');
  const deposit = await findPayment(db, link.id);
  const sale = await loadSale(db, plan.id, opts.n, false);
  if (!sale) throw notFound(`This plan has no installment ${opts.n}.`);
  if ((sale.status !== 'paid' && sale.status !== 'refunded') || !sale.gateway_txn_id || !deposit) {
    throw new AppError(
      'installment_not_paid',
      `Installment ${opts.n} is ${sale.status}: only a paid one can be refunded.`,
    );
  }
  const txn = await lookUpCharge(opts.gateway, sale.gateway_txn_id);
  if (!txn)
    throw new AppError('gateway_unknown_transaction', 'The card gateway does not know this installment’s sale.');

  const refund = await db.transaction(async (tx) => {
    const locked = (await loadSale(tx, plan.id, opts.n, true))!;
    return reserveRefund(tx, {
      ...opts,
      sale: {
        linkId: link.id,
        // The link's payment (the deposit) keeps the row's link to the money; plan_installment_id says which sale.
        paymentId: deposit.id,
        installmentId: locked.id,
        amountCents: Number(locked.amount_cents),
        reservedCents: await reservedInstallmentCents(tx, locked.id),
        transactionId: locked.gateway_txn_id!,
        name: `installment ${opts.n}`,
        saleName: 'This installment’s sale',
      },
      settled: txn.settled,
      audit: { action: 'installment.refund_requested', details: { n: opts.n } },
    });
  });

  const answer = await reverseCharge({ ...opts, linkId: link.id, refund });
  await db.transaction(async (tx) => {
    const done = await markRefundSucceeded(tx, refund.id, answer.txnId);
    // The plans module owns the instalment's status (refunded once all of it is given back).
    const inst = await recordInstallmentRefund(tx, {
      installmentId: String(refund.plan_installment_id),
      cents: refund.amount_cents,
    });
    const { refundedCents, amountCents } = inst;
    await writeAudit(tx, {
      ...opts.actor,
      action: refund.kind === 'void' ? 'installment.voided' : 'installment.refunded',
      linkId: link.id,
      details: {
        refundId: refund.id,
        n: opts.n,
        amountCents: refund.amount_cents,
        refundedCents,
        status: inst.status,
        transactionId: answer.txnId,
        originalTransactionId: refund.original_transaction_id,
        reason: refund.reason,
      },
    });
    const card = await tx.query<{ brand: string | null; last4: string | null }>(
      `select brand, last4 from stored_card where link_id = $1 order by replaced_at is null desc, id desc limit 1`,
      [link.id],
    );
    await queueRefundReceipt(tx, {
      ...opts,
      link,
      paid: deposit,
      refund: done,
      remainingCents: amountCents - refundedCents,
      cardBrand: card.rows[0]?.brand ?? null,
      cardLast4: card.rows[0]?.last4 ?? null,
    });
    await emitWebhookEvent(tx, 'payment.refunded', {
      linkId: link.id,
      refund: toRefund(done, { n: opts.n, count: plan.shape.kind === 'single' ? 1 : plan.shape.count }),
      installment: { n: opts.n, amount: amountCents / 100, refunded: refundedCents / 100, status: inst.status },
    });
  });
  return { plan: (await showPlan({ q: db, linkId: link.id }))! };
}

async function loadSale(q: Queryable, planId: string, n: number, lock: boolean) {
  const r = await q.query<InstallmentSale>(
    `select id::text, n, amount_cents::text, refunded_cents::text, status, gateway_txn_id
       from plan_installment where plan_id = $1 and n = $2${lock ? ' for update' : ''}`,
    [planId, n],
  );
  return r.rows[0] ?? null;
}
