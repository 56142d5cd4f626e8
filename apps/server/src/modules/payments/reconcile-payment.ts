import { sql } from 'kysely';
import type { LinkPlans } from '../../context.js';
import type { Db } from '../../db/client.js';
import { typed } from '../../db/typed.js';
import { writeAudit, SYSTEM_ACTOR, type Actor } from '../../lib/audit.js';
import { GatewayError, type CardGateway, type GatewayTransaction } from '../../providers/gateway/types.js';
import { firstOpenStepBeforePayment, findLink, findPayment } from '../links/index.js';
import type { PracticeInfo } from '../../messages/index.js';
import { recordApproval } from './confirm-payment.js';
import { findAttempt, type AttemptRow } from './payment-queries.js';
import { startPoller, type Poller } from '../../lib/poller.js';
import { LIVE_SESSION_WHERE, sessionEnded, type SessionClaim } from '../../http/session-tokens.js';

/**
 * Reconciliation (issue 10, docs/payments.md): an attempt whose token was handed out is checked with the gateway by
 * our ssl_merchant_txn_id until its outcome is known. An approval found this way is recorded exactly as a
 * browser-reported one (audit payment.reconciled); a second approval for a link already paid is recorded on its
 * attempt (status 'duplicate') and flagged for a void (needs_attention). Called when the patient comes back, before a
 * new token, when a confirmation fails, and by the background worker.
 */
export interface ReconcileDeps {
  db: Db;
  gateway: CardGateway;
  actor?: Actor;
  practiceFallback?: Partial<PracticeInfo>;
  timeZone?: string;
  /** The app's public URL: the SMS receipt carries the patient's link. */
  publicUrl?: string;
  /** A plan's deposit found approved stores its card as a confirmed one does (absent in tests of plain links). */
  plans?: LinkPlans;
}

/** Converge tokens live about 15 minutes: after this an unused token can no longer charge. */
const TOKEN_DEAD_AFTER_MINUTES = 20;
/** The worker's first look at an attempt that got a token and no confirmation. */
export const RECONCILE_FIRST_CHECK_SECONDS = 120;

export type ReconcileOutcome = 'approved' | 'duplicate' | 'none' | 'pending' | 'unknown';

const backoffSeconds = (tries: number) => Math.min(30 * 2 ** tries, 3600);

async function reconcileAttempt(deps: ReconcileDeps, attemptId: string): Promise<ReconcileOutcome> {
  const attempt = await findAttempt(deps.db, attemptId);
  if (!attempt) return 'none';
  if (attempt.status === 'approved') return 'approved';
  if (attempt.status === 'duplicate') return 'duplicate';
  if (!attempt.session_token) return 'none';
  let txns: GatewayTransaction[];
  try {
    txns = await deps.gateway.findByMerchantTxnId(attempt.id, new Date(attempt.created_at));
  } catch (err) {
    if (!(err instanceof GatewayError) && !(err as Error)?.name?.includes('Gateway')) throw err;
    await typed(deps.db)
      .updateTable('payment_attempt')
      .set((eb) => ({
        reconcile_tries: eb('reconcile_tries', '+', 1),
        reconcile_error: (err as Error).message.slice(0, 500),
        reconcile_due_at: sql`now() + make_interval(secs => ${backoffSeconds(attempt.reconcile_tries ?? 0)})`,
        updated_at: sql`now()`,
      }))
      .where('id', '=', attempt.id)
      .where('status', 'not in', ['approved', 'duplicate'])
      .execute();
    return 'unknown';
  }
  const approval = txns.find((t) => t.approved && t.merchantTxnId === attempt.id);
  if (approval) return recordFound(deps, attempt, approval);

  const dead = Date.now() - new Date(attempt.created_at).getTime() > TOKEN_DEAD_AFTER_MINUTES * 60_000;
  const used = txns.length > 0; // single use: a declined transaction used the token up
  if (dead || used || attempt.status === 'failed') {
    await typed(deps.db)
      .updateTable('payment_attempt')
      .set({
        status: sql`case when status in ('open', 'unknown') then 'closed' else status end`,
        reconcile_due_at: null,
        reconciled_at: sql`now()`,
        reconcile_error: null,
        updated_at: sql`now()`,
      })
      .where('id', '=', attempt.id)
      .where('status', 'not in', ['approved', 'duplicate'])
      .execute();
    return 'none';
  }
  // Not used yet and still usable: an 'unknown' attempt is live again; look once more after the token dies.
  await typed(deps.db)
    .updateTable('payment_attempt')
    .set({
      status: sql`case when status = 'unknown' then 'open' else status end`,
      reconcile_error: null,
      reconcile_due_at: sql`created_at + make_interval(mins => ${TOKEN_DEAD_AFTER_MINUTES})`,
      updated_at: sql`now()`,
    })
    .where('id', '=', attempt.id)
    .where('status', 'not in', ['approved', 'duplicate'])
    .execute();
  return 'pending';
}

async function recordFound(
  deps: ReconcileDeps,
  attempt: AttemptRow,
  txn: GatewayTransaction,
): Promise<ReconcileOutcome> {
  const actor = deps.actor ?? SYSTEM_ACTOR;
  return deps.db.transaction(async (tx): Promise<ReconcileOutcome> => {
    const link = (await findLink(tx, attempt.link_id, { forUpdate: true }))!;
    const current = (await findAttempt(tx, attempt.id))!;
    if (current.status === 'approved' || current.status === 'duplicate') return current.status;
    const payment = (await findPayment(tx, link.id))!;
    const last4 = txn.last4 && /^\d{4}$/.test(txn.last4) ? txn.last4 : null;
    if (payment.status === 'approved' && payment.transaction_id === txn.txnId) {
      await typed(tx)
        .updateTable('payment_attempt')
        .set({
          status: 'approved',
          transaction_id: txn.txnId,
          reconcile_due_at: null,
          reconciled_at: sql`now()`,
          updated_at: sql`now()`,
        })
        .where('id', '=', attempt.id)
        .execute();
      return 'approved';
    }
    const amountOk = txn.amountCents === attempt.amount_cents && payment.amount_cents === attempt.amount_cents;
    // The lifecycle completes a link only after every step before the payment (never the case for a token we issued).
    const stepsOpen = payment.status === 'approved' ? null : await firstOpenStepBeforePayment(tx, link.id);
    if (payment.status === 'approved' || !amountOk || stepsOpen) {
      // Charged twice (or for an amount the link no longer records): keep it, and tell staff to void it.
      const reason =
        payment.status === 'approved' ? 'second_approval' : !amountOk ? 'amount_mismatch' : 'steps_incomplete';
      await typed(tx)
        .updateTable('payment_attempt')
        .set({
          status: 'duplicate',
          transaction_id: txn.txnId,
          approval_code: txn.approvalCode,
          card_brand: txn.cardBrand,
          card_last4: last4,
          needs_attention: true,
          attention_reason: reason,
          reconcile_due_at: null,
          reconciled_at: sql`now()`,
          updated_at: sql`now()`,
        })
        .where('id', '=', attempt.id)
        .execute();
      await writeAudit(tx, {
        ...actor,
        action: 'payment.second_approval_flagged',
        linkId: link.id,
        details: {
          attemptId: attempt.id,
          transactionId: txn.txnId,
          amountCents: txn.amountCents,
          reason,
          recordedTransactionId: payment.transaction_id,
        },
      });
      return 'duplicate';
    }
    await recordApproval(tx, {
      actor,
      input: { linkId: link.id, transactionId: txn.txnId, payorFullName: '', payorEmail: '' },
      link,
      payment,
      attempt,
      txn,
      practiceFallback: deps.practiceFallback,
      timeZone: deps.timeZone,
      publicUrl: deps.publicUrl,
      by: 'reconciliation',
      plans: deps.plans,
    });
    await typed(tx)
      .updateTable('payment_attempt')
      .set({
        reconcile_due_at: null,
        reconciled_at: sql`now()`,
        approval_code: txn.approvalCode,
        card_brand: txn.cardBrand,
        card_last4: last4,
      })
      .where('id', '=', attempt.id)
      .execute();
    await writeAudit(tx, {
      ...actor,
      action: 'payment.reconciled',
      linkId: link.id,
      details: { attemptId: attempt.id, transactionId: txn.txnId, amountCents: attempt.amount_cents },
    });
    return 'approved';
  });
}

/**
 * Every attempt of a link that still waits for a verified outcome (token handed out, never confirmed). Returns
 * 'approved' if the link got paid by it, 'unknown' if the gateway could not tell us about at least one.
 */
export async function reconcileLink(
  deps: ReconcileDeps,
  linkId: string,
  /** A patient's claim on the link: its session row is checked in the same read (issue 30), 401 when it ended. */
  claim?: SessionClaim,
): Promise<'approved' | 'unknown' | 'clear'> {
  const dueSql = `select id from payment_attempt
      where link_id = $1 and session_token is not null and status in ('open', 'unknown', 'closed')
        and reconcile_due_at is not null order by created_at`;
  let due: { id: string }[];
  if (claim) {
    const r = await deps.db.query<{ session_live: boolean; due: string[] }>(
      `select exists (select 1 from patient_session s where ${LIVE_SESSION_WHERE('s', '$2', '$3')}) as session_live,
         array(${dueSql}) as due`,
      [linkId, claim.sessionId, claim.linkId],
    );
    if (!r.rows[0]!.session_live) throw sessionEnded();
    due = r.rows[0]!.due.map((id) => ({ id }));
  } else {
    due = (await deps.db.query<{ id: string }>(dueSql, [linkId])).rows;
  }
  let unknown = false;
  let approved = false;
  for (const { id } of due) {
    const o = await reconcileAttempt(deps, id);
    if (o === 'unknown') unknown = true;
    if (o === 'approved') approved = true;
  }
  return approved ? 'approved' : unknown ? 'unknown' : 'clear';
}

/**
 * The background pass: claims due attempts with `for update skip locked` (several server processes on one database
 * each take different rows) by pushing their due time out by a lease, then asks the gateway outside any transaction.
 */
export async function reconcileDueAttempts(deps: ReconcileDeps, limit = 10): Promise<Record<ReconcileOutcome, number>> {
  const claimed = await deps.db.transaction(async (tx) => {
    const rows = await typed(tx)
      .selectFrom('payment_attempt')
      .select('id')
      .where('reconcile_due_at', '<=', sql<Date>`now()`)
      .orderBy('reconcile_due_at')
      .limit(limit)
      .forUpdate()
      .skipLocked()
      .execute();
    const ids = rows.map((x) => x.id);
    if (ids.length) {
      await typed(tx)
        .updateTable('payment_attempt')
        .set({ reconcile_due_at: sql`now() + interval '5 minutes'` })
        .where('id', '=', sql<string>`any(${ids}::text[])`)
        .execute();
    }
    return ids;
  });
  const report: Record<ReconcileOutcome, number> = { approved: 0, duplicate: 0, none: 0, pending: 0, unknown: 0 };
  for (const id of claimed) report[await reconcileAttempt(deps, id)]++;
  return report;
}

/** Runs the background pass every intervalMs until stopped (main.ts, next to the outbox worker). */
export function startReconcileWorker(
  deps: ReconcileDeps & { log: { error: (o: object, m: string) => void } },
  intervalMs: number,
): Poller {
  return startPoller({
    name: 'payment reconciliation',
    intervalMs,
    log: deps.log,
    pass: () => reconcileDueAttempts(deps),
  });
}
