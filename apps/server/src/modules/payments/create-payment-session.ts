import { LinkMessages, PaymentSource, StepRoutes, formatUsd, parseDollarsToCents } from '@paylink/shared';
import { sql } from 'kysely';
import type { LinkPlans } from '../../context.js';
import type { Db } from '../../db/client.js';
import { typed } from '../../db/typed.js';
import { changeWithAudit, writeAudit, type Actor } from '../../lib/audit.js';
import { AppError, LinkStateError, badRequest } from '../../lib/errors.js';
import type { CardGateway } from '../../providers/gateway/types.js';
import { firstOpenStepBeforePayment, stepsIncomplete, findPayment, lockLinkForSession } from '../links/index.js';
import type { SessionClaim } from '../../http/session-tokens.js';
import { isStepDocumentComplete } from '../signing/index.js';
import { findAttempt, findLiveAttempt, newAttemptId, retireStaleAttempts, type AttemptRow } from './payment-queries.js';
import { RECONCILE_FIRST_CHECK_SECONDS, reconcileLink } from './reconcile-payment.js';

const gatewayUnavailable = () =>
  new AppError(
    'gateway_unavailable',
    'The card payment service is not available right now. Nothing was charged. Please try again in a few minutes.',
  );

/** An earlier attempt may have charged the card and the gateway could not tell us yet: no second token. */
const paymentChecking = () =>
  new AppError(
    'payment_checking',
    'We are checking your last payment, please wait. Do not pay again: this page will update on its own.',
  );

/**
 * Another browser (another patient session) holds the link's live token: it is paying now. Sharing its single-use
 * token would let only one of the two pay and tell the other that the processor did not answer (issue 25).
 */
export const paymentInProgress = () =>
  new AppError(
    'payment_in_progress',
    'A payment for this link is already in progress in another window or on another device. Wait for its result: this page will show it.',
  );

/** A plan link's deposit stores the card: the patient must first accept the card-on-file agreement (decision 0207). */
const agreementRequired = () =>
  new AppError(
    'agreement_required',
    'This payment starts a payment plan: read and accept the card-on-file agreement above the payment form first.',
  );

type Step =
  | { token: string }
  | { waitFor: string }
  | { create: AttemptRow; firstName: string; lastName: string; storeCard: boolean };

/**
 * POST /api/converge?amount=: a gateway session token for this link's recorded amount. The token carries our payment
 * attempt id as ssl_merchant_txn_id, so an approval can be tied back to the link and amount. While a token is live,
 * further submits of the same session (a double click, a retried request, 50 at once) get the same single-use token:
 * at most one charge. Another session asking meanwhile is answered 409 payment_in_progress (decision 0192).
 */
export async function createPaymentSession(opts: {
  db: Db;
  gateway: CardGateway;
  actor: Actor;
  linkId: string;
  /** The patient's claim (one browser's sign-in): its session row is checked in the first read and under the lock. */
  claim: SessionClaim;
  amount: string;
  /** New tokens allowed per link per hour (card-testing brake). */
  maxAttemptsPerHour?: number;
  plans: LinkPlans;
}): Promise<string> {
  const amountCents = parseDollarsToCents(opts.amount);
  if (amountCents === null || amountCents <= 0) throw badRequest('amount must be a dollar amount like 500 or 500.00');

  // First find out what earlier tokens did: a returning patient who was charged is recorded, not charged again.
  const checked = await reconcileLink(
    { db: opts.db, gateway: opts.gateway, actor: opts.actor, plans: opts.plans },
    opts.linkId,
    opts.claim,
  );
  if (checked === 'unknown') throw paymentChecking();

  // A concurrent request is fetching the token: wait for it (bounded), then share it.
  for (let round = 0; round < 3; round++) {
    const step = await planSession(opts, amountCents);
    if ('token' in step) return step.token;
    if ('create' in step) return issueToken(opts, step);
    await waitForAttempt(opts.db, step.waitFor);
  }
  throw gatewayUnavailable();
}

async function planSession(
  opts: {
    db: Db;
    gateway: CardGateway;
    actor: Actor;
    linkId: string;
    claim: SessionClaim;
    maxAttemptsPerHour?: number;
    plans: LinkPlans;
  },
  amountCents: number,
): Promise<Step> {
  return opts.db.transaction(async (tx): Promise<Step> => {
    // The session row again, in the locking read: it may have been revoked since the first read.
    const link = await lockLinkForSession(tx, opts.claim);
    const payment = await findPayment(tx, link.id);
    if (!payment) {
      throw new AppError('payment_not_chosen', 'Choose the payment amount on the patient information page first.');
    }
    if (payment.status === 'approved') throw new LinkStateError(LinkMessages.completed);
    if (amountCents !== payment.amount_cents) {
      throw new AppError(
        'amount_mismatch',
        `The amount does not match the payment recorded for this link (${formatUsd(payment.amount_cents)}). Reload the page.`,
      );
    }
    const open = await firstOpenStepBeforePayment(tx, link.id);
    if (open) throw stepsIncomplete(open);
    if (payment.payment_source_id === PaymentSource.Payor) {
      // The payor signs the payment authorisation before paying (spec section 5); the server re-checks it.
      const step = await typed(tx)
        .selectFrom('link_step')
        .select('id')
        .where('link_id', '=', link.id)
        .where('route_path', '=', StepRoutes.payment)
        .executeTakeFirst();
      const stepId = step?.id;
      if (stepId === undefined || !(await isStepDocumentComplete(tx, { linkId: link.id, linkStepId: stepId }))) {
        throw new AppError('authorization_not_signed', 'The payor must sign the payment authorization before paying.');
      }
    }
    const terms = link.has_plan ? await opts.plans.depositTerms(tx, link.id) : null;
    if (terms?.storeCard && !terms.agreementAccepted) throw agreementRequired();
    await retireStaleAttempts(tx, link.id, amountCents);
    const { live, recentCount } = await findLiveAttempt(tx, link.id);
    if (live?.status === 'unknown') throw paymentChecking();
    // Another browser's token (attempts made before they named their session are shared as before).
    if (live && live.session_id !== null && live.session_id !== opts.claim.sessionId) throw paymentInProgress();
    if (live?.status === 'open' && live.session_token) {
      await writeAudit(tx, {
        ...opts.actor,
        action: 'payment.session_shared',
        linkId: link.id,
        details: { attemptId: live.id, amountCents },
      });
      return { token: live.session_token };
    }
    if (live) return { waitFor: live.id };
    if (recentCount >= (opts.maxAttemptsPerHour ?? 20)) {
      throw new AppError(
        'too_many_payment_attempts',
        'Too many payment attempts. Please wait an hour, or contact your sales coordinator.',
      );
    }
    const id = newAttemptId();
    // The attempt and its audit row in one statement (issue 30).
    const [created] = await changeWithAudit<AttemptRow>(
      tx,
      typed(tx)
        .insertInto('payment_attempt')
        .values({
          id,
          link_id: link.id,
          payment_id: payment.id,
          amount_cents: amountCents,
          gateway: opts.gateway.kind,
          session_id: opts.claim.sessionId,
        })
        .returningAll()
        .compile(),
      {
        ...opts.actor,
        action: 'payment.session_requested',
        linkId: link.id,
        details: { attemptId: id, amountCents, gateway: opts.gateway.kind },
      },
      { returning: true },
    );
    // The payor's name is not on file before they type it: only prefill the gateway with the patient's own name.
    const patientPays = payment.payment_source_id !== PaymentSource.Payor;
    return {
      create: created!,
      firstName: patientPays ? link.first_name : '',
      lastName: patientPays ? link.last_name : '',
      storeCard: terms?.storeCard ?? false,
    };
  });
}

/** The gateway call happens outside any transaction (no lock is held across the network). */
async function issueToken(
  opts: { db: Db; gateway: CardGateway; actor: Actor; linkId: string },
  step: Extract<Step, { create: AttemptRow }>,
): Promise<string> {
  const attempt = step.create;
  let token: string;
  try {
    token = await opts.gateway.createSessionToken({
      amountCents: attempt.amount_cents,
      merchantTxnId: attempt.id,
      firstName: step.firstName,
      lastName: step.lastName,
      ...(step.storeCard ? { storeCard: true } : {}),
    });
  } catch (err) {
    // One statement: the attempt fails and its audit row is written together (issue 30).
    await changeWithAudit(
      opts.db,
      typed(opts.db)
        .updateTable('payment_attempt')
        .set({ status: 'failed', updated_at: sql`now()` })
        .where('id', '=', attempt.id)
        .compile(),
      {
        ...opts.actor,
        action: 'payment.session_failed',
        linkId: attempt.link_id,
        details: { attemptId: attempt.id, reason: (err as Error).message },
      },
    );
    throw gatewayUnavailable();
  }
  // One statement, no transaction (issue 30): the token is stored and audited only if the attempt is still being
  // created; retired meanwhile (the gateway took longer than CREATING_STALE_SECONDS), no orphan token is handed out.
  const issued = await changeWithAudit(
    opts.db,
    typed(opts.db)
      .updateTable('payment_attempt')
      .set({
        status: 'open',
        session_token: token,
        updated_at: sql`now()`,
        reconcile_due_at: sql`now() + make_interval(secs => ${RECONCILE_FIRST_CHECK_SECONDS})`,
      })
      .where('id', '=', attempt.id)
      .where('status', '=', 'creating')
      .returning('id')
      .compile(),
    {
      ...opts.actor,
      action: 'payment.session_issued',
      linkId: attempt.link_id,
      details: { attemptId: attempt.id, amountCents: attempt.amount_cents },
    },
    { ifChanged: true, returning: true },
  );
  if (issued.length === 0) throw gatewayUnavailable();
  return token;
}

/** Polls the row another request is filling in until it has a token, fails, or takes too long. */
async function waitForAttempt(db: Db, attemptId: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const a = await findAttempt(db, attemptId);
    if (!a || a.status !== 'creating') return;
    await new Promise((r) => setTimeout(r, 50));
  }
}
