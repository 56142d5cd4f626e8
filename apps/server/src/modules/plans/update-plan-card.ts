import { CARD_ON_FILE_AGREEMENT_VERSION } from '@paylink/shared';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Db, Queryable } from '../../db/client.js';
import { typed } from '../../db/typed.js';
import { writeAudit, type Actor } from '../../lib/audit.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { SecretSource } from '../../lib/secret-keys.js';
import { GatewayError, type CardGateway, type GatewayTransaction } from '../../providers/gateway/types.js';
import { findLink } from '../links/index.js';
import { storeCard } from './card-queries.js';
import { sealCardToken } from './card-token-seal.js';
import { findPlanByLink, type PlanRow } from './plans-queries.js';
import { parseExpiry } from './store-deposit-card.js';

/** New verification sessions allowed per link per hour: a brake on card testing through the update page. */
const MAX_UPDATES_PER_HOUR = 5;

const gatewayUnavailable = () =>
  new AppError(
    'gateway_unavailable',
    'The card service is not available right now. Your card was not changed. Please try again in a few minutes.',
  );
const notVerified = (why: string) =>
  new AppError('card_not_verified', `The card could not be verified (${why}). Your card on file was not changed.`);

/** Only a plan with charges still to come takes a new card. */
function requireOpenPlan(plan: PlanRow | null): PlanRow {
  if (!plan) throw notFound('This link has no payment plan.');
  if (plan.status === 'pending') {
    throw new AppError('plan_pending', 'The deposit of this plan is not paid yet: the card is entered with it.');
  }
  if (plan.status === 'cancelled' || plan.status === 'completed') {
    throw new AppError('plan_closed', 'This payment plan has ended: there is nothing left to charge to a card.');
  }
  return plan;
}

/** An acceptance of the current agreement that no card has been stored under yet: the one this card comes under. */
async function pendingAgreement(q: Queryable, linkId: string): Promise<boolean> {
  const r = await typed(q)
    .selectFrom('card_agreement')
    .select((eb) => eb.lit(1).as('one'))
    .where('link_id', '=', linkId)
    .where('text_version', '=', CARD_ON_FILE_AGREEMENT_VERSION)
    .where('stored_card_id', 'is', null)
    .limit(1)
    .executeTakeFirst();
  return r !== undefined;
}

/**
 * POST /api/plans/:linkId/card/session (decision 0211): a gateway session that verifies and stores a new card without
 * charging it (ccverify, ssl_get_token=Y, ssl_add_token=Y). Needs an active or paused plan and the agreement accepted
 * again for this card. The card_update row is stored before the gateway is asked: its id is the verification's
 * merchant transaction id, the only one the confirmation accepts.
 */
export async function startCardUpdate(opts: {
  db: Db;
  gateway: CardGateway;
  actor: Actor;
  linkId: string;
}): Promise<{ sessionToken: string; updateId: string }> {
  const updateId = randomBytes(12).toString('hex');
  const names = await opts.db.transaction(async (tx) => {
    requireOpenPlan(await findPlanByLink(tx, opts.linkId, { forUpdate: true }));
    if (!(await pendingAgreement(tx, opts.linkId))) {
      throw new AppError(
        'agreement_required',
        'Read and accept the card-on-file agreement for the new card first (the checkbox above the button).',
      );
    }
    const recent = await typed(tx)
      .selectFrom('card_update')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('link_id', '=', opts.linkId)
      .where('created_at', '>', sql<Date>`now() - interval '1 hour'`)
      .executeTakeFirst();
    if ((recent?.n ?? 0) >= MAX_UPDATES_PER_HOUR) {
      throw new AppError(
        'too_many_payment_attempts',
        'Too many attempts to change the card. Please wait an hour or call the practice.',
      );
    }
    await typed(tx).insertInto('card_update').values({ id: updateId, link_id: opts.linkId }).execute();
    await writeAudit(tx, {
      ...opts.actor,
      action: 'plan.card_update_started',
      linkId: opts.linkId,
      details: { updateId },
    });
    const link = (await findLink(tx, opts.linkId))!;
    return { firstName: link.first_name, lastName: link.last_name };
  });
  try {
    const sessionToken = await opts.gateway.createCardVerifySession({ merchantTxnId: updateId, ...names });
    return { sessionToken, updateId };
  } catch (err) {
    if (err instanceof GatewayError) throw gatewayUnavailable();
    throw err;
  }
}

export interface ConfirmCardUpdateResult {
  card: { brand: string | null; last4: string | null };
  retrying: number;
}

/**
 * POST /api/plans/:linkId/card: the browser says the gateway verified the card; the gateway is asked (never the
 * browser's word). A verification of this very update, approved, with a token: the token is sealed into a new
 * stored_card that replaces the old one, the pending agreement rows point at it, and every declined instalment waiting
 * for its retry is due again at once (the scheduler's next pass charges it to the new card; decision 0211).
 * Told twice about the same verification, it answers the same.
 */
export async function confirmCardUpdate(opts: {
  db: Db;
  gateway: CardGateway;
  secrets: SecretSource;
  actor: Actor;
  linkId: string;
  updateId: string;
  transactionId: string;
}): Promise<ConfirmCardUpdateResult> {
  const row = await typed(opts.db)
    .selectFrom('card_update')
    .select(['status', 'gateway_txn_id'])
    .where('id', '=', opts.updateId)
    .where('link_id', '=', opts.linkId)
    .executeTakeFirst();
  if (!row) throw notFound('This card change was not started on this link.');
  if (row.status === 'stored') {
    if (row.gateway_txn_id !== opts.transactionId) {
      throw new AppError('already_resolved', 'This card change was already completed with another verification.');
    }
    return currentResult(opts.db, opts.linkId, opts.updateId);
  }
  let txn: GatewayTransaction | null;
  try {
    txn = await opts.gateway.queryTransaction(opts.transactionId);
  } catch (err) {
    if (err instanceof GatewayError) throw gatewayUnavailable();
    throw err;
  }
  const why = !txn
    ? 'the card service does not know it'
    : txn.merchantTxnId !== opts.updateId
      ? 'it belongs to another request'
      : !txn.verified
        ? txn.resultMessage || 'declined'
        : !txn.cardToken
          ? 'no card token came back'
          : null;
  if (why || !txn) {
    await writeAudit(opts.db, {
      ...opts.actor,
      action: 'plan.card_update_refused',
      linkId: opts.linkId,
      details: { updateId: opts.updateId, transactionId: opts.transactionId.slice(0, 100), reason: why },
    });
    throw notVerified(why ?? 'unknown');
  }
  const verified = txn;
  return opts.db.transaction(async (tx) => {
    const plan = requireOpenPlan(await findPlanByLink(tx, opts.linkId, { forUpdate: true }));
    // Another request may have stored it while the gateway was asked.
    const again = await typed(tx)
      .selectFrom('card_update')
      .select('status')
      .where('id', '=', opts.updateId)
      .forUpdate()
      .executeTakeFirst();
    if (again?.status === 'stored') return currentResult(tx, opts.linkId, opts.updateId);
    const expiry = parseExpiry(verified.cardExpiry);
    const last4 = verified.last4 && /^\d{4}$/.test(verified.last4) ? verified.last4 : null;
    const cardId = await storeCard(tx, {
      linkId: opts.linkId,
      tokenSealed: await sealCardToken({ ...opts.secrets, q: tx }, verified.cardToken!),
      brand: verified.cardBrand,
      last4,
      expMonth: expiry?.month ?? null,
      expYear: expiry?.year ?? null,
      paymentAttemptId: null,
      cardUpdateId: opts.updateId,
      approvalCode: verified.approvalCode,
      ps2000Data: verified.ps2000Data ?? null,
    });
    await typed(tx)
      .updateTable('card_update')
      .set({ status: 'stored', gateway_txn_id: verified.txnId, completed_at: sql`now()` })
      .where('id', '=', opts.updateId)
      .execute();
    await typed(tx)
      .updateTable('payment_plan')
      .set({ card_needed_at: null, updated_at: sql`now()` })
      .where('id', '=', plan.id)
      .execute();
    // Declined and waiting: due at once with the new card (an attempt in flight keeps its claim and is left alone).
    const retry = await typed(tx)
      .updateTable('plan_installment')
      .set({ next_attempt_at: sql`now()`, updated_at: sql`now()` })
      .where('plan_id', '=', plan.id)
      .where('status', '=', 'notified')
      .where('attempts', '>', 0)
      .where('claimed_by', 'is', null)
      .where('next_attempt_at', 'is not', null)
      .where('next_attempt_at', '>', sql<Date>`now()`)
      .executeTakeFirst();
    const retrying = Number(retry.numUpdatedRows);
    await writeAudit(tx, {
      ...opts.actor,
      action: 'plan.card_updated',
      linkId: opts.linkId,
      details: {
        cardId,
        brand: verified.cardBrand,
        last4,
        expiry: verified.cardExpiry ?? null,
        updateId: opts.updateId,
        transactionId: verified.txnId,
        retrying,
      },
    });
    return { card: { brand: verified.cardBrand, last4 }, retrying };
  });
}

async function currentResult(q: Queryable, linkId: string, updateId: string): Promise<ConfirmCardUpdateResult> {
  const r = await typed(q)
    .selectFrom('stored_card')
    .select(['brand', 'last4'])
    .where('link_id', '=', linkId)
    .where('card_update_id', '=', updateId)
    .executeTakeFirst();
  return { card: r ?? { brand: null, last4: null }, retrying: 0 };
}
