import {
  LinkMessages,
  PaymentSource,
  StepRoutes,
  StepStatus,
  amountRule,
  dollarsToCents,
  effectivePaymentType,
  isAmountInRange,
  type PaymentChoice,
} from '@paylink/shared';
import { sql } from 'kysely';
import type { Db, Queryable } from '../../db/client.js';
import { typed } from '../../db/typed.js';
import { changeWithAudit, writeAudit } from '../../lib/audit.js';
import { AppError, LinkStateError } from '../../lib/errors.js';
import { findPayment, lockLinkForSession, type LinkRow, type PaymentRow } from './link-queries.js';
import type { SessionClaim } from '../../http/session-tokens.js';
import type { Actor } from '../../lib/audit.js';
import { centsToDollars } from './link-views.js';
import type { LinkPayments } from '../../context.js';

export interface PaymentChoiceInput {
  paymentTypeId?: number;
  paymentSourceId?: number;
  /** Whole dollars as typed. */
  paymentAmount: number;
}

/** True once any step after patient information is complete: from then on the choice and the step list stay fixed. */
export async function isStepListFrozen(q: Queryable, linkId: string): Promise<boolean> {
  const done = await typed(q)
    .selectFrom('link_step')
    .select('id')
    .where('link_id', '=', linkId)
    .where('route_path', '<>', StepRoutes.patientInfo)
    .where('status_id', '=', StepStatus.Completed)
    .limit(1)
    .executeTakeFirst();
  return done !== undefined;
}

/**
 * Spec section 5 on the server: a locked link forces type 2, a missing type becomes 1 and a missing source 1; the
 * amount must fall in the type's range. Stored as cents. Call inside a transaction holding the link row lock.
 */
export async function applyPaymentChoice(
  tx: Queryable,
  opts: {
    link: LinkRow;
    actor: Actor;
    input: PaymentChoiceInput;
    payments: Pick<LinkPayments, 'hasLiveToken'>;
    /** The link's payment as the caller read it in this transaction, under the link's lock (not read again). */
    existing?: PaymentRow | null;
  },
): Promise<{ payment: PaymentRow; changed: boolean }> {
  const { link, input } = opts;
  const locked = link.is_payment_link_locked;
  const typeId = effectivePaymentType({ locked, paymentTypeId: input.paymentTypeId });
  const sourceId = input.paymentSourceId ?? PaymentSource.Patient;
  const rule = amountRule({ locked, paymentTypeId: typeId });
  if (!isAmountInRange(input.paymentAmount, rule)) {
    throw new AppError('amount_out_of_range', rule.message, { fields: { paymentAmount: rule.message } });
  }
  const cents = dollarsToCents(input.paymentAmount);
  const existing = opts.existing !== undefined ? opts.existing : await findPayment(tx, link.id);
  if (existing?.status === 'approved') throw new LinkStateError(LinkMessages.completed);
  if (
    existing &&
    existing.payment_type_id === typeId &&
    existing.payment_source_id === sourceId &&
    existing.amount_cents === cents
  ) {
    return { payment: existing, changed: false };
  }
  // A live gateway token is bound to the old amount: changing the choice under it could charge the old amount.
  if (existing && (await opts.payments.hasLiveToken(tx, link.id))) {
    throw new AppError(
      'payment_in_progress',
      'A card payment is in progress for this link. Finish it on the payment page, or try again in 10 minutes.',
    );
  }
  if (existing && (await isStepListFrozen(tx, link.id))) {
    throw new AppError(
      'payment_choice_locked',
      'The payment can no longer be changed: a later step is already complete. Contact your sales coordinator.',
    );
  }
  // The upsert and its audit row in one statement (issue 30).
  const [payment] = await changeWithAudit<PaymentRow>(
    tx,
    typed(tx)
      .insertInto('payment')
      .values({ link_id: link.id, payment_type_id: typeId, payment_source_id: sourceId, amount_cents: cents })
      .onConflict((oc) =>
        oc.column('link_id').doUpdateSet((eb) => ({
          payment_type_id: eb.ref('excluded.payment_type_id'),
          payment_source_id: eb.ref('excluded.payment_source_id'),
          amount_cents: eb.ref('excluded.amount_cents'),
          updated_at: sql`now()`,
        })),
      )
      .returningAll()
      .compile(),
    {
      ...opts.actor,
      action: 'payment.choice_recorded',
      linkId: link.id,
      details: {
        paymentTypeId: typeId,
        paymentSourceId: sourceId,
        amountCents: cents,
        ...(existing
          ? {
              previous: {
                paymentTypeId: existing.payment_type_id,
                paymentSourceId: existing.payment_source_id,
                amountCents: existing.amount_cents,
              },
            }
          : {}),
      },
    },
    { returning: true },
  );
  return { payment: payment!, changed: true };
}

function toPaymentChoice(payment: PaymentRow): PaymentChoice {
  return {
    linkId: payment.link_id,
    paymentTypeId: payment.payment_type_id,
    paymentSourceId: payment.payment_source_id,
    paymentAmount: centsToDollars(payment.amount_cents),
  };
}

/** POST /api/linkpaymenthistory: records the patient's choice (idempotent for the same values). */
export async function recordPaymentChoice(opts: {
  db: Db;
  payments: Pick<LinkPayments, 'hasLiveToken'>;
  actor: Actor;
  /** The patient's claim on the link (its session row is checked in the link's locking read). */
  claim: SessionClaim;
  input: PaymentChoiceInput;
}): Promise<PaymentChoice> {
  return opts.db.transaction(async (tx) => {
    const link = await lockLinkForSession(tx, opts.claim);
    const { payment, changed } = await applyPaymentChoice(tx, {
      link,
      actor: opts.actor,
      input: opts.input,
      payments: opts.payments,
    });
    if (!changed) await writeAudit(tx, { ...opts.actor, action: 'payment.choice_confirmed', linkId: link.id });
    return toPaymentChoice(payment);
  });
}
