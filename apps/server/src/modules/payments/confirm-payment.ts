import { LINK_ID_PATTERN, LinkMessages, PaymentSource, type PaymentReceipt } from '@paylink/shared';
import { sql } from 'kysely';
import type { LinkPlans } from '../../context.js';
import type { Db, Queryable } from '../../db/client.js';
import { typed } from '../../db/typed.js';
import { batchAudits, writeAudit, type Actor } from '../../lib/audit.js';
import { AppError, LinkStateError, type AppErrorCode } from '../../lib/errors.js';
import { GatewayError, type CardGateway, type GatewayTransaction } from '../../providers/gateway/types.js';
import {
  completeByPayment,
  firstOpenStepBeforePayment,
  stepsIncomplete,
  findLink,
  findPayment,
  HAS_PLAN_SQL,
  LINK_NOT_AUTHORIZED,
  type LinkRow,
  personalLinkUrl,
  type PaymentRow,
} from '../links/index.js';
import { enqueueMessage, loadPracticeInfo, type PracticeInfo } from '../../messages/index.js';
import { findAttempt, type AttemptRow } from './payment-queries.js';
import { maskReceiptAddress, renderReceipt, renderSmsReceipt } from './payment-receipt.js';
import { isOptedOut } from '../../messages/opt-outs.js';
import { queuePayorPaidNotice } from './payor-paid-notice.js';
import { checkSessionRow, liveSessionSql, sessionEnded, type SessionClaim } from '../../http/session-tokens.js';

export interface ConfirmPaymentInput {
  linkId: string;
  transactionId: string;
  payorFullName: string;
  payorEmail: string;
  /** Patient pays: the payment page's receipt e-mail ('' = none: SMS); absent = the e-mail on file. */
  receiptEmail?: string;
}

export interface ConfirmPaymentResult {
  linkId: string;
  transactionId: string;
  approvalCode: string;
  /** Dollars. */
  amount: number;
  cardBrand: string | null;
  cardLast4: string | null;
  paidAt: string;
  receipt: PaymentReceipt;
}

/** The gateway could not be asked: the payment may have gone through. Truthful, and safe to retry. */
const paymentUnconfirmed = () =>
  new AppError(
    'payment_unconfirmed',
    'We could not confirm your payment yet. Do not pay again: your card may have been charged. We will e-mail or text you as soon as it is confirmed.',
  );

const notVerified = (code: AppErrorCode, message: string) => new AppError(code, message);

function toResult(p: PaymentRow): ConfirmPaymentResult {
  return {
    linkId: p.link_id,
    transactionId: p.transaction_id!,
    approvalCode: p.approval_code ?? '',
    amount: p.amount_cents / 100,
    cardBrand: p.card_brand,
    cardLast4: p.card_last4,
    paidAt: new Date(p.paid_at!).toISOString(),
    receipt: {
      channel: (p.receipt_channel as PaymentReceipt['channel'] | null) ?? 'none',
      to: p.receipt_to ?? null,
    },
  };
}

/**
 * PUT /api/linkpaymenthistory: the browser says "approved"; we believe the gateway only. The transaction must be
 * approved, for our attempt (ssl_merchant_txn_id) on this link, for the recorded amount. Then, in one transaction:
 * the payment is recorded, the payment and confirmation steps and the link complete, and the receipt is queued.
 * The same approval reported again gets the same answer and changes nothing.
 */
export async function confirmPayment(opts: {
  db: Db;
  gateway: CardGateway;
  actor: Actor;
  /** The patient's claim on input.linkId: its session row is checked in the first read (issue 30). */
  claim: SessionClaim;
  input: ConfirmPaymentInput;
  /** Used when the practice row is missing (it is seeded at boot from PRACTICE_* config). */
  practiceFallback?: Partial<PracticeInfo>;
  timeZone?: string;
  /** The app's public URL: the SMS receipt carries the patient's link. */
  publicUrl?: string;
  plans: LinkPlans;
}): Promise<ConfirmPaymentResult> {
  const { db, input } = opts;
  const { link, paymentStatus, hasPlan } = await readLinkForClaim(db, opts.claim, input.linkId);
  // Already recorded: answered from the row, without asking the gateway (read in full only on this rare path).
  if (paymentStatus === 'approved') return repeated(opts, (await findPayment(db, link.id))!);

  let txn: GatewayTransaction | null;
  try {
    txn = await opts.gateway.queryTransaction(input.transactionId);
  } catch (err) {
    if (err instanceof GatewayError) {
      // The card may well be charged: never say otherwise. The worker keeps asking the gateway on its own.
      await typed(db)
        .updateTable('payment_attempt')
        .set({ status: 'unknown', reconcile_due_at: sql`now() + interval '30 seconds'`, updated_at: sql`now()` })
        .where('link_id', '=', link.id)
        .where('status', '=', 'open')
        .execute();
      await writeAudit(db, {
        ...opts.actor,
        action: 'payment.confirmation_unknown',
        linkId: link.id,
        details: { transactionId: input.transactionId, reason: err.message },
      });
      throw paymentUnconfirmed();
    }
    throw err;
  }
  const attempt = await verify(db, opts.gateway, link, input, txn);

  // The approval's audit rows (payment, steps, link, receipt) and their webhook events: one statement at the end.
  const outcome = await db.transaction((tx) =>
    batchAudits(tx, async (): Promise<{ repeat: PaymentRow } | { recorded: PaymentRow } | { refused: string }> => {
      const locked = (await findLink(tx, link.id, { forUpdate: true }))!;
      const payment = (await findPayment(tx, link.id))!;
      if (payment.status === 'approved') return { repeat: payment };
      if (payment.amount_cents !== attempt.amount_cents) {
        throw notVerified('payment_mismatch', 'The payment does not match the amount recorded for this link.');
      }
      const open = await firstOpenStepBeforePayment(tx, link.id);
      if (open) return { refused: open };
      const recorded = await recordApproval(tx, {
        ...opts,
        link: locked,
        payment,
        attempt,
        txn: txn!,
        stepsChecked: true,
        // A plan is created with its link or never (issue 30): a link without one asks the plans module nothing.
        plans: hasPlan ? opts.plans : undefined,
      });
      return { recorded };
    }),
  );
  if ('refused' in outcome) {
    // The approval exists at the gateway: staff must see it (audit), even though the link cannot complete yet.
    await writeAudit(db, {
      ...opts.actor,
      action: 'payment.confirmation_refused',
      linkId: link.id,
      details: { reason: 'steps_incomplete', routePath: outcome.refused, transactionId: input.transactionId },
    });
    throw stepsIncomplete(outcome.refused);
  }
  if ('repeat' in outcome) return repeated(opts, outcome.repeat);
  return toResult(outcome.recorded);
}

/**
 * The link, its payment's status and the patient's session row in one statement (issue 30: no guard read of its own,
 * no second read of the payment). As with the session guard first, an ended session is refused 401 before anything
 * else; an unknown link gets the generic 401. No link-state check: an approval at the gateway is recorded even if
 * the link expired meanwhile.
 */
async function readLinkForClaim(
  db: Queryable,
  claim: SessionClaim,
  linkId: string,
): Promise<{ link: LinkRow; paymentStatus: PaymentRow['status'] | null; hasPlan: boolean }> {
  const row = LINK_ID_PATTERN.test(linkId)
    ? await typed(db)
        .selectFrom('link as l')
        .selectAll('l')
        .select(liveSessionSql(claim).as('session_live'))
        .select(
          sql<PaymentRow['status'] | null>`(select p.status from payment p where p.link_id = l.id)`.as(
            'payment_status',
          ),
        )
        .select(HAS_PLAN_SQL.as('has_plan'))
        .where('l.id', '=', linkId)
        .executeTakeFirst()
    : undefined;
  if (!row) {
    await checkSessionRow(db, claim);
    throw new LinkStateError(LINK_NOT_AUTHORIZED);
  }
  const { session_live, payment_status, has_plan, ...link } = row;
  if (!session_live) throw sessionEnded();
  return { link, paymentStatus: payment_status, hasPlan: has_plan };
}

/** Already recorded: the same transaction gets the same answer; a different one is a second payment, refused. */
async function repeated(opts: { db: Db; actor: Actor; input: ConfirmPaymentInput }, payment: PaymentRow) {
  if (payment.transaction_id === opts.input.transactionId) {
    await writeAudit(opts.db, {
      ...opts.actor,
      action: 'payment.confirmation_repeated',
      linkId: payment.link_id,
      details: { transactionId: payment.transaction_id },
    });
    return toResult(payment);
  }
  // Staff need to know about a second approval at the gateway (to void it), even though we refuse it.
  await writeAudit(opts.db, {
    ...opts.actor,
    action: 'payment.second_payment_refused',
    linkId: payment.link_id,
    details: { transactionId: opts.input.transactionId, recordedTransactionId: payment.transaction_id },
  });
  throw new LinkStateError(LinkMessages.completed);
}

async function verify(
  db: Queryable,
  gateway: CardGateway,
  link: LinkRow,
  input: ConfirmPaymentInput,
  txn: GatewayTransaction | null,
): Promise<AttemptRow> {
  const refuse = () =>
    notVerified(
      'payment_not_verified',
      'The card gateway does not confirm this payment for this link. Nothing was recorded; contact your sales coordinator if you were charged.',
    );
  if (!txn || txn.txnId !== input.transactionId) throw refuse();
  if (!txn.approved) {
    throw notVerified('payment_not_approved', 'The card gateway reports this payment as not approved.');
  }
  const attempt = txn.merchantTxnId ? await findAttempt(db, txn.merchantTxnId) : null;
  if (!attempt || attempt.link_id !== link.id || attempt.gateway !== gateway.kind) {
    throw refuse();
  }
  if (txn.amountCents === null || txn.amountCents !== attempt.amount_cents) {
    throw notVerified('payment_mismatch', 'The payment does not match the amount recorded for this link.');
  }
  return attempt;
}

export async function recordApproval(
  tx: Queryable,
  o: {
    actor: Actor;
    input: ConfirmPaymentInput;
    link: LinkRow;
    payment: PaymentRow;
    attempt: AttemptRow;
    txn: GatewayTransaction;
    practiceFallback?: Partial<PracticeInfo>;
    timeZone?: string;
    publicUrl?: string;
    by?: 'payment' | 'reconciliation';
    /** Absent only where no link has a plan (tests of the reconciliation of plain links). */
    plans?: LinkPlans;
    /** The caller found no open step before the payment in this transaction, under the link's lock. */
    stepsChecked?: boolean;
  },
): Promise<PaymentRow> {
  const { link, payment, attempt, txn, input } = o;
  const payorPays = payment.payment_source_id === PaymentSource.Payor;
  const payorName = input.payorFullName || (payorPays ? link.payor_name : null) || null;
  const payorEmail = input.payorEmail || (payorPays ? link.payor_email : null) || null;
  const last4 = txn.last4 && /^\d{4}$/.test(txn.last4) ? txn.last4 : null;

  // Where the receipt goes is decided first, so the payment's update records it too (issue 30: no second update).
  const route = await routeReceipt(tx, {
    link,
    payorPays,
    payorEmail,
    receiptEmail: input.receiptEmail,
  });
  const db = typed(tx);
  const paid = await db
    .updateTable('payment')
    .set({
      status: 'approved',
      receipt_channel: route.channel,
      receipt_to: route.to,
      transaction_id: txn.txnId,
      approval_code: txn.approvalCode ?? '',
      card_brand: txn.cardBrand,
      card_last4: last4,
      payor_full_name: payorName,
      payor_email: payorEmail,
      paid_at: sql`now()`,
      updated_at: sql`now()`,
    })
    .where('id', '=', payment.id)
    .where('status', '=', 'chosen')
    .returningAll()
    .executeTakeFirstOrThrow();
  // The approved attempt and the link's other live ones (closed: no second charge) in one statement (issue 30).
  await db
    .updateTable('payment_attempt')
    .set({
      status: sql`case when id = ${attempt.id} then 'approved' else 'closed' end`,
      transaction_id: sql`case when id = ${attempt.id} then ${txn.txnId} else transaction_id end`,
      updated_at: sql`now()`,
    })
    .where((eb) =>
      eb.or([
        eb('id', '=', attempt.id),
        eb.and([eb('link_id', '=', link.id), eb('status', 'in', ['creating', 'open'])]),
      ]),
    )
    .execute();
  await writeAudit(tx, {
    ...o.actor,
    action: 'payment.approved',
    linkId: link.id,
    details: {
      attemptId: attempt.id,
      transactionId: txn.txnId,
      amountCents: attempt.amount_cents,
      cardBrand: txn.cardBrand,
      cardLast4: last4,
    },
  });
  // The payment and confirmation steps and the link: the lifecycle's transition, with its order rule.
  await completeByPayment(tx, { actor: o.actor, link, by: o.by ?? 'payment', stepsChecked: o.stepsChecked });
  // A plan's deposit: its card and instalments commit with the approval or not at all.
  const hasPlan = await o.plans?.onDepositApproved(tx, {
    actor: o.actor,
    linkId: link.id,
    attemptId: attempt.id,
    paidCents: paid.amount_cents,
    transaction: txn,
  });

  // A link without a plan has no plan terms for its receipt: not read again (issue 30).
  const receipt = await sendReceipt(tx, {
    ...o,
    plans: hasPlan ? o.plans : undefined,
    paid,
    payorPays,
    payorName,
    route,
  });
  // The patient hears that their payor paid (issue 16, item 7); the payor got the receipt.
  if (payorPays) {
    await queuePayorPaidNotice(tx, {
      actor: o.actor,
      link,
      practice: await loadPracticeInfo(tx, o.practiceFallback),
      payorName: link.payor_name || payorName,
      receiptTo: receipt.channel === 'email' ? receipt.address : null,
      amountCents: paid.amount_cents,
      paidAt: new Date(paid.paid_at!),
      timeZone: o.timeZone,
    });
  }
  return paid;
}

/** What a receipt is made of, for queueReceipt and the route it takes. */
interface ReceiptFacts {
  actor: Actor;
  link: LinkRow;
  /** The approved payment (its transaction id, card and time are the receipt's). */
  paid: PaymentRow;
  payorPays: boolean;
  payorName: string | null;
  practiceFallback?: Partial<PracticeInfo>;
  timeZone?: string;
  /** The app's public URL: the SMS receipt carries the patient's link (issue 41). */
  publicUrl?: string;
  plans?: LinkPlans;
  /** The audit action: the first receipt, or a staff member's resend (issue 29, item 4). */
  action?: 'payment.receipt_queued' | 'payment.receipt_resent';
}

/**
 * The receipt goes where the patient can read it (issue 10 item 7): by e-mail to the payor (payor pays) or to the
 * address the patient gave on the payment page, else the one on file; with no e-mail, by SMS to the phone on file
 * (unless it opted out); with neither, nothing is sent and the confirmation says so. Queued in the recording
 * transaction; what was sent is kept on the payment for the confirmation page.
 */
export async function queueReceipt(
  tx: Queryable,
  o: ReceiptFacts & {
    payorEmail: string | null;
    /** The address the patient typed on the payment page ('' = by SMS); absent = the one on file. */
    receiptEmail?: string;
  },
): Promise<PaymentReceipt & { address: string | null }> {
  return sendReceipt(tx, { ...o, route: await routeReceipt(tx, o) });
}

/** Where a receipt goes (the rules above), before anything is sent. */
interface ReceiptRoute {
  channel: 'email' | 'sms' | 'none';
  /** The full address or phone ('none': null). */
  address: string | null;
  /** Masked, as kept on the payment. */
  to: string | null;
  /** 'none': why, for the audit row. */
  skipped?: string;
}

async function routeReceipt(
  tx: Queryable,
  o: { link: LinkRow; payorPays: boolean; payorEmail: string | null; receiptEmail?: string },
): Promise<ReceiptRoute> {
  const { link, payorPays } = o;
  const patientEmail = o.receiptEmail !== undefined ? o.receiptEmail : link.email;
  const email = (payorPays ? o.payorEmail || link.email : patientEmail)?.trim();
  const phone = link.phone?.trim();
  if (email) return { channel: 'email', address: email, to: maskReceiptAddress('email', email) };
  if (!payorPays && phone && !(await isOptedOut(tx, 'sms', phone))) {
    return { channel: 'sms', address: phone, to: maskReceiptAddress('sms', phone) };
  }
  return {
    channel: 'none',
    address: null,
    to: null,
    skipped: phone ? 'no e-mail address; the phone opted out of SMS' : 'no e-mail address or phone on file',
  };
}

/** Queues the receipt by its route (or records that none could be sent), with its audit row. */
async function sendReceipt(
  tx: Queryable,
  o: ReceiptFacts & { route: ReceiptRoute },
): Promise<PaymentReceipt & { address: string | null }> {
  const { link, paid, payorPays, route } = o;
  const action = o.action ?? 'payment.receipt_queued';
  if (route.channel === 'none') {
    await writeAudit(tx, {
      ...o.actor,
      action: 'payment.receipt_skipped',
      linkId: link.id,
      details: { reason: route.skipped },
    });
    return { channel: 'none', to: null, address: null };
  }
  const practice = await loadPracticeInfo(tx, o.practiceFallback);
  const facts = {
    lang: link.language,
    practice,
    amountCents: paid.amount_cents,
    paidAt: new Date(paid.paid_at!),
    cardBrand: paid.card_brand,
    cardLast4: paid.card_last4,
    transactionId: paid.transaction_id ?? '',
    approvalCode: paid.approval_code ?? '',
    paidBy: payorPays ? o.payorName : null,
    timeZone: o.timeZone,
    // Read after onDepositApproved stored the instalments, in the same transaction.
    plan: (await o.plans?.receiptTerms(tx, link.id, practice)) ?? null,
  };
  const address = route.address!;
  if (route.channel === 'email') {
    const mail = renderReceipt(facts);
    const { id } = await enqueueMessage(tx, {
      channel: 'email',
      to: address,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      linkId: link.id,
      kind: 'receipt',
    });
    await writeAudit(tx, {
      ...o.actor,
      action,
      linkId: link.id,
      details: { outboxId: id, channel: 'email', recipient: payorPays ? 'payor' : 'patient', language: link.language },
    });
    return { channel: 'email', to: route.to, address };
  }
  const { id } = await enqueueMessage(tx, {
    channel: 'sms',
    to: address,
    text: renderSmsReceipt({
      ...facts,
      url: o.publicUrl
        ? `${personalLinkUrl(o.publicUrl, link.id)}${link.language === 'es' ? '&lng=es' : ''}`
        : undefined,
    }),
    linkId: link.id,
    kind: 'receipt',
  });
  await writeAudit(tx, {
    ...o.actor,
    action,
    linkId: link.id,
    details: { outboxId: id, channel: 'sms', recipient: 'patient', language: link.language },
  });
  return { channel: 'sms', to: route.to, address };
}
