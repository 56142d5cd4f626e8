import { addDays, cardBrandName, isoDateInZone, PLAN_NOTICE_DAYS, type Language } from '@paylink/shared';
import { randomBytes } from 'node:crypto';
import type { Config } from '../../config.js';
import { retryingTransaction, type Db, type Queryable } from '../../db/client.js';
import { writeAudit } from '../../lib/audit.js';
import { isQuiet, messageZoneFor } from '../../lib/time-zones.js';
import { composeEmail, enqueueMessage, loadPracticeInfo, type PracticeInfo } from '../../messages/index.js';
import { emitWebhookEvent } from '../../messages/emit-event.js';
import { isOptedOut } from '../../messages/opt-outs.js';
import { GatewayError, type CardGateway, type GatewayTransaction } from '../../providers/gateway/types.js';
import { practiceTimeZone } from '../app-config/index.js';
import { personalLinkUrl } from '../links/index.js';
import { flagSecondApproval } from '../payments/index.js';
import { openCardToken } from './card-token-seal.js';
import {
  lockPlanRow,
  moveInstallments,
  movePlan,
  type InstallmentColumns,
  type InstallmentStatus,
} from './plan-lifecycle.js';
import { PLAN_EMAILS, planSms, type InstallmentFacts, type PlanMessageKind } from './plan-message-texts.js';
import { cardExpiresBefore } from './upcoming-charges.js';

/** Days after each decline before the next try: three retries, then the instalment fails. */
export const PLAN_RETRY_DAYS = [1, 3, 7] as const;
/** A claim outlives the slowest gateway call; an expired one is taken over and reconciled first. */
const LEASE_SECONDS = 300;
/** Marks an attempt whose outcome is not known yet: set before the gateway call, cleared by its answer. */
export const OUTCOME_UNKNOWN = 'outcome_unknown';
/**
 * claimed_by of an instalment whose sale got no answer (decision 0237): nobody claims it (no pass, no "charge now")
 * until claim_expires_at, the end of the gateway's outcome window after the sale was sent, unless a lookup finds it.
 */
export const UNKNOWN_HOLD = 'hold:outcome_unknown';
/** How far back a reconciliation looks for the unknown attempt (a server down for days still finds it). */
const RECONCILE_DAYS = 7;
/** A notice nobody can receive is looked at again this long after (not on every pass): the patient's contact changes rarely. */
const HELD_RECHECK_MS = 86_400_000;
/** Claimed instalments worked on at once within a pass: gateway round trips overlap, the pool keeps connections. */
const PASS_CONCURRENCY = 4;

export interface RunPlanSchedulerOptions {
  db: Db;
  gateway: CardGateway;
  config: Config;
  /** The business clock: due dates and notices are measured against it (tests and the CLI move it). */
  now: Date;
  log: { info: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void };
  /** Instalments claimed per batch (default PLAN_SCHEDULER_BATCH); a pass claims batches until nothing unseen is due. */
  limit?: number;
  /** Claimed instalments worked on at once (default 4). */
  concurrency?: number;
  /** True once the process is shutting down: the pass finishes its batch and claims no more. */
  stopping?: () => boolean;
}

export interface PlanSchedulerReport {
  notified: number;
  /** Notices held back by quiet hours until a later pass. */
  deferred: number;
  paid: number;
  declined: number;
  failed: number;
  unknown: number;
  completedPlans: number;
  /** Patients asked for another card because theirs expires before an open instalment. */
  cardsExpiring: number;
}

interface Claimed {
  id: string;
  planId: string;
  linkId: string;
  n: number;
  count: number;
  dueOn: string;
  amountCents: number;
  status: 'scheduled' | 'notified';
  attempts: number;
  merchantTxnId: string;
  lastFailure: string | null;
  /** When the row was claimed (the database's clock): the lower bound of a reconciliation's search. */
  claimedAt: Date;
}

export interface LinkFacts {
  id: string;
  first_name: string;
  phone: string;
  email: string;
  language: Language;
  state: string;
  zip_code: string;
}

/** What every instalment of a pass reads alike, read once per pass (the practice's details, its quiet hours). */
interface PassOptions extends RunPlanSchedulerOptions {
  once: { practice?: Promise<PracticeInfo>; quiet?: Promise<{ start: number; end: number } | null> };
}

type Outcome = keyof Omit<PlanSchedulerReport, 'completedPlans' | 'cardsExpiring'>;

/**
 * One pass of the payment-plan scheduler (decision 0209): claims due instalments with a lease (`for update skip
 * locked`, then claimed_by + claim_expires_at), so any number of processes each take different rows; sends the notice
 * PLAN_NOTICE_DAYS before the charge, and on the due date charges the stored card once per instalment attempt with a
 * merchant transaction id stored before the call. An attempt whose outcome is unknown keeps its id and the next claim
 * asks the gateway for it before anything else is charged.
 */
export async function runPlanScheduler(opts: RunPlanSchedulerOptions): Promise<PlanSchedulerReport> {
  const report: PlanSchedulerReport = {
    notified: 0,
    deferred: 0,
    paid: 0,
    declined: 0,
    failed: 0,
    unknown: 0,
    completedPlans: 0,
    cardsExpiring: 0,
  };
  const timeZone = await practiceTimeZone(opts.db, opts.config);
  const runId = randomBytes(8).toString('hex');
  const pass: PassOptions = { ...opts, once: {} };
  const today = isoDateInZone(opts.now, timeZone);
  // Rows this pass has had (released after a deferral, an unknown outcome or an error): never claimed twice in a pass,
  // so a pass ends even while the gateway is down.
  const seen: string[] = [];
  // A sale held for its answer is recorded as soon as the gateway shows it (the hold itself is left alone otherwise).
  for (const row of await heldUnknown(opts.db)) {
    if (opts.stopping?.()) break;
    seen.push(row.id);
    try {
      const outcome = await settleHeld(pass, row, runId, timeZone);
      if (outcome) {
        report[outcome.kind]++;
        if (outcome.completed) report.completedPlans++;
      }
    } catch (err) {
      opts.log.error({ err, installmentId: row.id }, 'plan installment: the held sale could not be looked up');
    }
  }
  while (!opts.stopping?.()) {
    const claimed = await claimDue(opts.db, {
      runId,
      now: opts.now,
      today,
      limit: opts.limit ?? opts.config.PLAN_SCHEDULER_BATCH,
      exclude: seen,
    });
    if (!claimed.length) break;
    seen.push(...claimed.map((r) => r.id));
    // Read on the pool before any instalment's transaction (PGlite's one connection would wait for it inside one).
    pass.once.practice ??= practiceFor(opts.db, opts.config);
    pass.once.quiet ??= quietHours(opts.db, opts.config);
    await Promise.all([pass.once.practice, pass.once.quiet]);
    // One plan's instalments one after the other, in order (its completion is decided by the last one recorded).
    const byPlan = new Map<string, Claimed[]>();
    for (const r of claimed) byPlan.set(r.planId, [...(byPlan.get(r.planId) ?? []), r]);
    await eachAtOnce([...byPlan.values()], opts.concurrency ?? PASS_CONCURRENCY, async (rows) => {
      for (const row of rows) await work(row);
    });
  }
  try {
    report.cardsExpiring = await askForExpiringCards(opts, timeZone);
  } catch (err) {
    opts.log.error({ err }, 'plan scheduler: the expiring-card pass failed; the next pass tries again');
  }
  if (seen.length || report.cardsExpiring) opts.log.info({ ...report, claimed: seen.length }, 'plan scheduler pass');
  return report;

  async function work(row: Claimed): Promise<void> {
    try {
      const outcome =
        row.status === 'scheduled'
          ? await sendNotice(pass, row, runId, timeZone)
          : await charge(pass, row, runId, timeZone);
      report[outcome.kind]++;
      if (outcome.completed) report.completedPlans++;
    } catch (err) {
      opts.log.error(
        { err, installmentId: row.id },
        'plan installment pass failed; the claim expires and it is tried again',
      );
    }
  }
}

/** How long before an instalment a card that will have expired by then is reported to the patient. */
export const CARD_EXPIRY_NOTICE_DAYS = 30;

/**
 * A card that expires before an open instalment's due date: the patient is asked once (stored_card.expiry_notified_at,
 * set in the same transaction as the message and its audit row) to enter another card, CARD_EXPIRY_NOTICE_DAYS before
 * the first such instalment, so the new card is there before the 7-day notice. A card replaced later starts afresh.
 */
async function askForExpiringCards(opts: RunPlanSchedulerOptions, timeZone: string): Promise<number> {
  const today = isoDateInZone(opts.now, timeZone);
  const due = await opts.db.query<{ card_id: string; link_id: string; plan_id: string }>(
    `select c.id::text as card_id, c.link_id, p.id::text as plan_id
       from stored_card c join payment_plan p on p.link_id = c.link_id
      where c.replaced_at is null and c.expiry_notified_at is null and c.exp_year is not null
        and p.status = 'active'
        and exists (select 1 from plan_installment i
                     where i.plan_id = p.id and i.status in ('scheduled', 'notified')
                       -- the card's last valid day is the end of its expiry month
                       and i.due_on >= make_date(c.exp_year, c.exp_month, 1) + interval '1 month'
                       and i.due_on - $2::int <= $1::date)
      order by c.id
      limit 50`,
    [today, CARD_EXPIRY_NOTICE_DAYS],
  );
  let asked = 0;
  for (const row of due.rows) {
    const done = await opts.db.transaction(async (tx) => {
      const claim = await tx.query(
        `update stored_card set expiry_notified_at = now() where id = $1 and expiry_notified_at is null
            and replaced_at is null`,
        [row.card_id],
      );
      if (claim.rowCount !== 1) return false; // another process asked, or the card was just replaced
      const first = await tx.query<{ n: number; due_on: string; amount_cents: string }>(
        `select i.n, to_char(i.due_on, 'YYYY-MM-DD') as due_on, i.amount_cents::text
           from plan_installment i, stored_card c
          where i.plan_id = $1 and c.id = $2 and i.status in ('scheduled', 'notified')
            and i.due_on >= make_date(c.exp_year, c.exp_month, 1) + interval '1 month'
          order by i.due_on limit 1`,
        [row.plan_id, row.card_id],
      );
      const inst = first.rows[0];
      if (!inst) return false;
      const countR = await tx.query<{ count: number }>(
        `select installment_count as count from payment_plan where id = $1`,
        [row.plan_id],
      );
      const link = await loadLink(tx, row.link_id);
      const claimedLike = {
        linkId: row.link_id,
        n: inst.n,
        count: countR.rows[0]?.count ?? 1,
        amountCents: Number(inst.amount_cents),
      } as Claimed;
      const facts = await factsFor(tx, opts, claimedLike, link, inst.due_on);
      const messageId = await tellPatient(tx, opts, link, 'plan-card-expiring', facts);
      await writeAudit(tx, {
        actorType: 'system',
        action: 'plan.card_expiring_notified',
        linkId: row.link_id,
        details: { cardId: row.card_id, n: inst.n, dueOn: inst.due_on, messageId },
      });
      return true;
    });
    if (done) asked++;
  }
  return asked;
}

/** fn over items, at most `width` at a time, in the items' order. */
async function eachAtOnce<T>(items: T[], width: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(width, items.length)) }, lane));
}

async function claimDue(
  db: Db,
  o: { runId: string; now: Date; today: string; limit: number; exclude: string[] },
): Promise<Claimed[]> {
  return db.transaction(async (tx) => {
    const r = await tx.query<ClaimedRow>(
      `with due as (
         select i.id from plan_installment i join payment_plan p on p.id = i.plan_id
         where p.status = 'active' and i.status in ('scheduled', 'notified')
           and (i.claim_expires_at is null or i.claim_expires_at < now())
           -- A retry's time, or a held notice's next look (quiet hours, nobody to tell): not before it.
           and (i.next_attempt_at is null or i.next_attempt_at <= $3::timestamptz)
           and ((i.status = 'scheduled' and i.due_on - $4::int <= $2::date)
             or (i.status = 'notified' and i.due_on <= $2::date
                 -- The notice period gates the first try; a retry (or a staff charge now) is timed by next_attempt_at.
                 and (i.attempts > 0 or i.notified_at + make_interval(days => $4::int) <= $3::timestamptz)))
           and i.id <> all($7::bigint[])
         order by i.due_on, i.id
         limit $5
         for update of i skip locked
       )
       update plan_installment i
          set claimed_by = $1, claim_expires_at = now() + make_interval(secs => $6::int), updated_at = now()
         from due, payment_plan p
        where i.id = due.id and p.id = i.plan_id
       returning ${CLAIMED_COLUMNS}`,
      [o.runId, o.today, o.now.toISOString(), PLAN_NOTICE_DAYS, o.limit, LEASE_SECONDS, o.exclude],
    );
    return r.rows.map(toClaimed).sort((a, b) => a.dueOn.localeCompare(b.dueOn) || Number(a.id) - Number(b.id));
  });
}

const CLAIMED_COLUMNS = `i.id::text, i.plan_id::text, p.link_id, i.n, p.installment_count as count,
                 to_char(i.due_on, 'YYYY-MM-DD') as due_on, i.amount_cents::text, i.status, i.attempts,
                 i.merchant_txn_id, i.last_failure, i.updated_at as claimed_at`;

interface ClaimedRow {
  id: string;
  plan_id: string;
  link_id: string;
  n: number;
  count: number;
  due_on: string;
  amount_cents: string;
  status: 'scheduled' | 'notified';
  attempts: number;
  merchant_txn_id: string;
  last_failure: string | null;
  claimed_at: Date | string;
}

const toClaimed = (x: ClaimedRow): Claimed => ({
  id: x.id,
  planId: x.plan_id,
  linkId: x.link_id,
  n: x.n,
  count: x.count,
  dueOn: x.due_on,
  amountCents: Number(x.amount_cents),
  status: x.status,
  attempts: x.attempts,
  merchantTxnId: x.merchant_txn_id,
  lastFailure: x.last_failure,
  claimedAt: new Date(x.claimed_at),
});

export type ChargeNowOutcome = 'paid' | 'declined' | 'failed' | 'unknown';

/**
 * Staff's "charge now" (decision 0210) on the scheduler's own path: the same lease, the same merchant transaction id
 * stored before the call and the same reconciliation of an unknown outcome; only the claim differs (this one
 * instalment, whatever its due date, which becomes today). A failed instalment gets a new merchant transaction id (its
 * last sale was declined). The row is `notified` from here, so an unknown outcome is reconciled by the next pass and
 * a decline is retried 1, 3 and 7 days later as the patient is told. Null when the
 * instalment cannot be claimed: not open, its plan not active, or a pass holds its lease.
 */
export async function chargeInstallmentNow(
  opts: Omit<RunPlanSchedulerOptions, 'limit'> & { installmentId: string },
): Promise<ChargeNowOutcome | null> {
  const timeZone = await practiceTimeZone(opts.db, opts.config);
  const runId = randomBytes(8).toString('hex');
  const row = await retryingTransaction(opts.db, async (tx) => {
    const r = await tx.query<ClaimedRow>(
      `update plan_installment i
        set claimed_by = $2, claim_expires_at = now() + make_interval(secs => $3::int), updated_at = now(),
            -- Charged today at the patient's request: due today, so a decline follows the retry policy from today
            -- and an unknown outcome is reconciled by the next pass, as for any due instalment.
            notified_at = coalesce(i.notified_at, $5::timestamptz), due_on = least(i.due_on, $6::date),
            merchant_txn_id = case when i.status = 'failed' then $4 else i.merchant_txn_id end,
            next_attempt_at = null
       from payment_plan p
      where i.id = $1 and p.id = i.plan_id and p.status = 'active'
        and i.status in ('scheduled', 'notified', 'failed')
        and (i.claim_expires_at is null or i.claim_expires_at < now())
      returning ${CLAIMED_COLUMNS}`,
      [
        opts.installmentId,
        runId,
        LEASE_SECONDS,
        randomBytes(12).toString('hex'),
        opts.now.toISOString(),
        isoDateInZone(opts.now, timeZone),
      ],
    );
    // The row is `notified` from here (plan-lifecycle: scheduled, notified or failed → notified).
    if (r.rows[0]) await moveClaimed(tx, toClaimed(r.rows[0]), runId, 'notified', {});
    return r.rows[0];
  });
  if (!row) return null;
  // A charge sends no notice, so the quiet hours are not read.
  const once = { practice: practiceFor(opts.db, opts.config) };
  await once.practice;
  const outcome = await charge({ ...opts, once }, toClaimed(row), runId, timeZone);
  return outcome.kind as ChargeNowOutcome;
}

/** RELEASE as columns, for a status move. */
const RELEASED = { claimed_by: null, claim_expires_at: null } as const;

/** A claimed row's status moves (plan-lifecycle.ts, the only writer), through its claim, as updateClaimed's writes. */
async function moveClaimed(
  tx: Queryable,
  row: Claimed,
  runId: string,
  to: InstallmentStatus,
  set: InstallmentColumns,
): Promise<void> {
  const moved = await moveInstallments(tx, [row.id], to, { set, claimedBy: runId });
  if (moved.length !== 1) throw new Error(`plan installment ${row.id}: the claim was lost`);
}

/** Every write of a claimed row goes through its claim: a process whose lease was taken over writes nothing. */
async function updateClaimed(
  tx: Queryable,
  row: Claimed,
  runId: string,
  set: string,
  params: unknown[],
  o: { live?: boolean } = {},
): Promise<Date> {
  const live = o.live ? ' and claim_expires_at > now()' : '';
  const r = await tx.query<{ at: Date | string }>(
    `update plan_installment set ${set}, updated_at = now() where id = $1 and claimed_by = $2${live}
     returning now() as at`,
    [row.id, runId, ...params],
  );
  if (r.rowCount !== 1) throw new Error(`plan installment ${row.id}: the claim was lost`);
  return new Date(r.rows[0]!.at);
}

const RELEASE = 'claimed_by = null, claim_expires_at = null';
/** The notice could not be sent to anyone: the instalment is held (never charged without its notice). */
const NOTICE_UNDELIVERABLE = 'notice_undeliverable';

// ---- the notice ---------------------------------------------------------------------------------------------------

async function sendNotice(
  opts: PassOptions,
  row: Claimed,
  runId: string,
  timeZone: string,
): Promise<{ kind: Outcome; completed?: boolean }> {
  const link = await loadLink(opts.db, row.linkId);
  // Quiet hours hold texts only: a patient who opted out of SMS is told by e-mail at once.
  const bySms = !!link.phone && !(await isOptedOut(opts.db, 'sms', link.phone));
  const quiet = await opts.once.quiet!;
  // Quiet hours are the patient's (decision 0217: address, area code, then the practice's zone); dates stay the
  // practice's.
  const patientZone = messageZoneFor(link, timeZone).timeZone;
  if (bySms && isQuiet(opts.now, patientZone, quiet)) {
    // Not claimed again until the quiet hours end: a pass inside them does not take every held notice again.
    await opts.db.transaction((tx) =>
      updateClaimed(tx, row, runId, `next_attempt_at = $3, ${RELEASE}`, [
        quietEnd(opts.now, patientZone, quiet).toISOString(),
      ]),
    );
    return { kind: 'deferred' };
  }
  // A deposit paid late cannot give the full notice: the charge moves to the notice period's end.
  const earliest = addDays(isoDateInZone(opts.now, timeZone), PLAN_NOTICE_DAYS);
  const chargeOn = row.dueOn < earliest ? earliest : row.dueOn;
  return opts.db.transaction(async (tx) => {
    const facts = await factsFor(tx, opts, row, link, chargeOn);
    // A card expired by the charge's date is not promised a charge: the patient is asked for another (decision 0246).
    const kind = facts.cardExpired ? 'plan-notice-card-expired' : 'plan-notice';
    const messageId = await tellPatient(tx, opts, link, kind, facts);
    if (!messageId) {
      // Nobody to tell (no address, or every channel opted out): no notice, so no charge. The instalment waits,
      // marked for the practice, and goes ahead with a full notice period once the patient can be told.
      await updateClaimed(tx, row, runId, `last_failure = $3, next_attempt_at = $4, ${RELEASE}`, [
        NOTICE_UNDELIVERABLE,
        new Date(opts.now.getTime() + HELD_RECHECK_MS).toISOString(),
      ]);
      if (row.lastFailure !== NOTICE_UNDELIVERABLE) {
        await writeAudit(tx, {
          actorType: 'system',
          action: 'installment.notice_undeliverable',
          linkId: row.linkId,
          details: { n: row.n, amountCents: row.amountCents, dueOn: row.dueOn },
        });
      }
      return { kind: 'deferred' as const };
    }
    await moveClaimed(tx, row, runId, 'notified', {
      notified_at: opts.now.toISOString(),
      due_on: chargeOn,
      last_failure: null,
      next_attempt_at: null,
      ...RELEASED,
    });
    await writeAudit(tx, {
      actorType: 'system',
      action: 'installment.notified',
      linkId: row.linkId,
      details: {
        n: row.n,
        amountCents: row.amountCents,
        dueOn: chargeOn,
        ...(chargeOn !== row.dueOn ? { movedFrom: row.dueOn } : {}),
        messageId,
      },
    });
    await emitWebhookEvent(tx, 'installment.notified', {
      linkId: row.linkId,
      n: row.n,
      amountCents: row.amountCents,
      dueOn: chargeOn,
    });
    return { kind: 'notified' as const };
  });
}

// ---- the charge ---------------------------------------------------------------------------------------------------

async function charge(
  opts: PassOptions,
  row: Claimed,
  runId: string,
  timeZone: string,
): Promise<{ kind: Outcome; completed?: boolean }> {
  if (row.lastFailure === OUTCOME_UNKNOWN) {
    // The last try's answer never came (or its process died): the gateway's word first, never a second sale blind.
    // Claimed only after the hold (the gateway's outcome window), so nothing found now means nothing was charged.
    const known = await recordFound(opts, row, runId, await lookUp(opts, row), timeZone);
    if (known) return known;
  }
  const card = await currentCard(opts.db, row.linkId);
  // Stored before the call: a crash or a timeout from here on is reconciled by this id. Only under a live lease, which
  // it renews: a row late in a long batch never reaches the gateway on an expired lease that another pass may take
  // over (and, finding the call still in flight, send again).
  const attempts = row.lastFailure === OUTCOME_UNKNOWN ? row.attempts : row.attempts + 1;
  // The lease outlives the gateway's outcome window: a process that dies mid-call leaves a hold as long as the answer's.
  const sentAt = await retryingTransaction(opts.db, (tx) =>
    updateClaimed(
      tx,
      row,
      runId,
      'attempts = $3, last_failure = $4, claim_expires_at = now() + make_interval(secs => $5::int)',
      [attempts, OUTCOME_UNKNOWN, Math.max(LEASE_SECONDS, Math.ceil(opts.gateway.outcomeWindowMs / 1000))],
      { live: true },
    ),
  );
  if (!card) return recordDeclined(opts, row, runId, 'no stored card', attempts, timeZone);
  let txn: GatewayTransaction;
  try {
    txn = await opts.gateway.chargeStoredCard({
      token: await openCardToken({ ...opts, q: opts.db }, card.token_sealed),
      amountCents: row.amountCents,
      merchantTxnId: row.merchantTxnId,
      installment: { number: row.n, count: row.count },
      // The sandbox judges the card's expiry on the pass's day (decision 0246); Converge is never sent it.
      asOf: opts.now,
    });
  } catch (err) {
    if (err instanceof GatewayError && err.refused) {
      return recordDeclined(opts, row, runId, `refused: ${err.message}`, attempts, timeZone);
    }
    opts.log.error(
      { err, installmentId: row.id, merchantTxnId: row.merchantTxnId },
      'installment charge outcome unknown',
    );
    // Held, not released (decision 0237): the gateway may still be working on this sale, so no pass and no "charge
    // now" may look it up and, finding nothing yet, send a second one. Each pass asks the gateway meanwhile.
    const heldUntil = new Date(sentAt.getTime() + opts.gateway.outcomeWindowMs);
    await retryingTransaction(opts.db, async (tx) => {
      await updateClaimed(tx, row, runId, 'claimed_by = $3, claim_expires_at = $4::timestamptz', [
        UNKNOWN_HOLD,
        heldUntil.toISOString(),
      ]);
      await writeAudit(tx, {
        actorType: 'system',
        action: 'installment.outcome_unknown',
        linkId: row.linkId,
        details: {
          n: row.n,
          merchantTxnId: row.merchantTxnId,
          error: (err as Error).message,
          heldUntil: heldUntil.toISOString(),
        },
      });
    });
    return { kind: 'unknown' };
  }
  if (txn.approved) return recordPaid(opts, { ...row, attempts }, runId, txn, timeZone, { reconciled: false });
  return recordDeclined(opts, row, runId, txn.resultMessage, attempts, timeZone);
}

/** Every transaction the gateway holds under the row's merchant transaction id. */
async function lookUp(opts: PassOptions, row: Claimed): Promise<GatewayTransaction[]> {
  const found = await opts.gateway.findByMerchantTxnId(
    row.merchantTxnId,
    new Date(row.claimedAt.getTime() - RECONCILE_DAYS * 86_400_000),
  );
  return found.filter((t) => t.merchantTxnId === row.merchantTxnId);
}

/**
 * The gateway's word on a sale whose answer was lost: its approval recorded (any further approval under the same
 * merchant transaction id flagged for a void, as for a deposit), else its decline; null when it shows nothing.
 */
async function recordFound(
  opts: PassOptions,
  row: Claimed,
  runId: string,
  found: GatewayTransaction[],
  timeZone: string,
): Promise<{ kind: Outcome; completed?: boolean } | null> {
  const approved = found.filter((t) => t.approved);
  if (approved.length) {
    return recordPaid(opts, row, runId, approved[0]!, timeZone, { reconciled: true, extra: approved.slice(1) });
  }
  const declined = found.find((t) => !t.approved && !t.verified);
  if (declined) return recordDeclined(opts, row, runId, declined.resultMessage, row.attempts, timeZone);
  return null;
}

/** Instalments held for a lost answer, still inside their window (the oldest first). */
async function heldUnknown(db: Db): Promise<Claimed[]> {
  const r = await db.query<ClaimedRow>(
    `select ${CLAIMED_COLUMNS} from plan_installment i join payment_plan p on p.id = i.plan_id
      where i.claimed_by = $1 and i.claim_expires_at > now() and i.last_failure = $2 and i.status = 'notified'
      order by i.claim_expires_at, i.id
      limit 50`,
    [UNKNOWN_HOLD, OUTCOME_UNKNOWN],
  );
  return r.rows.map(toClaimed);
}

/**
 * A pass asks the gateway about a held sale: when it shows the sale, the pass takes the hold over and records it; when
 * it shows nothing yet, the hold stays until its end (nothing found inside the window is never "not charged").
 */
async function settleHeld(
  opts: PassOptions,
  row: Claimed,
  runId: string,
  timeZone: string,
): Promise<{ kind: Outcome; completed?: boolean } | null> {
  const found = await lookUp(opts, row);
  if (!found.some((t) => t.approved || !t.verified)) return null;
  const taken = await opts.db.query(
    `update plan_installment set claimed_by = $2, claim_expires_at = now() + make_interval(secs => $3::int),
            updated_at = now()
      where id = $1 and claimed_by = $4 and last_failure = $5`,
    [row.id, runId, LEASE_SECONDS, UNKNOWN_HOLD, OUTCOME_UNKNOWN],
  );
  if (taken.rowCount !== 1) return null; // another pass took it first
  return recordFound(opts, row, runId, found, timeZone);
}

async function recordPaid(
  opts: PassOptions,
  row: Claimed,
  runId: string,
  txn: GatewayTransaction,
  timeZone: string,
  o: { reconciled: boolean; extra?: GatewayTransaction[] },
): Promise<{ kind: Outcome; completed: boolean }> {
  return retryingTransaction(opts.db, async (tx) => {
    // The plan, then the instalment: the one lock order of every plan write (decision 0238). Two instalments of one
    // plan paid at once (charge now beside a pass) each saw the other still open and left the plan active; the plan's
    // row lock makes the later one look after the earlier one committed.
    await lockPlanRow(tx, row.planId);
    await moveClaimed(tx, row, runId, 'paid', {
      paid_at: opts.now.toISOString(),
      gateway_txn_id: txn.txnId,
      last_failure: null,
      next_attempt_at: null,
      ...RELEASED,
    });
    const link = await loadLink(tx, row.linkId);
    const facts = await factsFor(tx, opts, row, link, isoDateInZone(opts.now, timeZone), { txn });
    const messageId = await tellPatient(tx, opts, link, 'plan-receipt', facts);
    const details = { n: row.n, amountCents: row.amountCents, txnId: txn.txnId, merchantTxnId: row.merchantTxnId };
    await writeAudit(tx, {
      actorType: 'system',
      action: 'installment.paid',
      linkId: row.linkId,
      details: { ...details, attempts: row.attempts, reconciled: o.reconciled, messageId },
    });
    await emitWebhookEvent(tx, 'installment.paid', { linkId: row.linkId, ...details });
    // Approved more than once under one merchant transaction id: the others are flagged for billing to void.
    for (const extra of o.extra ?? []) {
      await flagSecondApproval(tx, {
        linkId: row.linkId,
        gateway: opts.gateway.kind,
        txn: extra,
        amountCents: row.amountCents,
        details: { n: row.n, merchantTxnId: row.merchantTxnId, recordedTxnId: txn.txnId },
      });
    }
    const open = await tx.query(
      `select 1 from plan_installment where plan_id = $1 and status not in ('paid', 'cancelled', 'refunded') limit 1`,
      [row.planId],
    );
    if (open.rowCount) return { kind: 'paid' as const, completed: false };
    await movePlan(tx, row.planId, 'completed', { from: ['active'] });
    await writeAudit(tx, { actorType: 'system', action: 'plan.completed', linkId: row.linkId, details: {} });
    await tellPatient(tx, opts, link, 'plan-completed', facts);
    return { kind: 'paid' as const, completed: true };
  });
}

async function recordDeclined(
  opts: PassOptions,
  row: Claimed,
  runId: string,
  reason: string,
  attempts: number,
  timeZone: string,
): Promise<{ kind: Outcome }> {
  const delay = PLAN_RETRY_DAYS[attempts - 1];
  const final = delay === undefined;
  const nextAt = final ? null : new Date(opts.now.getTime() + delay * 86_400_000);
  await retryingTransaction(opts.db, async (tx) => {
    // A retry is a new sale: a new merchant transaction id, stored here before it is ever sent.
    const nextMerchantTxnId = final ? row.merchantTxnId : randomBytes(12).toString('hex');
    await moveClaimed(tx, row, runId, final ? 'failed' : 'notified', {
      attempts,
      last_failure: reason.slice(0, 200),
      next_attempt_at: nextAt?.toISOString() ?? null,
      merchant_txn_id: nextMerchantTxnId,
      ...RELEASED,
    });
    const link = await loadLink(tx, row.linkId);
    const facts = await factsFor(tx, opts, row, link, nextAt ? isoDateInZone(nextAt, timeZone) : row.dueOn);
    const messageId = await tellPatient(tx, opts, link, final ? 'plan-failed' : 'plan-declined', facts);
    const details = {
      n: row.n,
      amountCents: row.amountCents,
      attempts,
      reason: reason.slice(0, 200),
      merchantTxnId: row.merchantTxnId,
      nextAttemptAt: nextAt?.toISOString() ?? null,
      final,
    };
    await writeAudit(tx, {
      actorType: 'system',
      action: final ? 'installment.failed' : 'installment.declined',
      linkId: row.linkId,
      details: { ...details, messageId },
    });
    // The practice hears of every decline through its webhooks; the console's attention list reads the failed rows.
    await emitWebhookEvent(tx, 'installment.failed', { linkId: row.linkId, ...details });
  });
  return { kind: final ? 'failed' : 'declined' };
}

// ---- the patient's messages ---------------------------------------------------------------------------------------

export async function loadLink(q: Queryable, linkId: string): Promise<LinkFacts> {
  const r = await q.query<LinkFacts>(
    `select id, first_name, phone, email, language, state, zip_code from link where id = $1`,
    [linkId],
  );
  if (!r.rows[0]) throw new Error(`plan link ${linkId} not found`);
  return r.rows[0];
}

async function currentCard(q: Queryable, linkId: string) {
  const r = await q.query<{
    token_sealed: string;
    last4: string | null;
    brand: string | null;
    exp_month: number | null;
    exp_year: number | null;
  }>(
    `select token_sealed, last4, brand, exp_month, exp_year from stored_card where link_id = $1 and replaced_at is null`,
    [linkId],
  );
  return r.rows[0] ?? null;
}

async function practiceFor(q: Queryable, config: Config): Promise<PracticeInfo> {
  return loadPracticeInfo(q, {
    name: config.PRACTICE_NAME,
    senderName: config.senderName,
    supportPhone: config.PRACTICE_PHONE,
    supportEmail: config.PRACTICE_EMAIL,
  });
}

export async function factsFor(
  q: Queryable,
  opts: Pick<RunPlanSchedulerOptions, 'config'> & { once?: PassOptions['once'] },
  row: Pick<Claimed, 'linkId' | 'n' | 'count' | 'amountCents'>,
  link: LinkFacts,
  date: string,
  /** A receipt's sale: its ids, and what remains of the plan (read after this instalment is recorded paid). */
  receipt?: { txn: GatewayTransaction },
): Promise<InstallmentFacts & { practice: PracticeInfo; cardExpired: boolean }> {
  // A pass reads the practice once; a staff action (cancel) reads it for its one message.
  const practice = await (opts.once?.practice ?? practiceFor(q, opts.config));
  const card = await currentCard(q, row.linkId);
  const locale = link.language === 'es' ? 'es-US' : 'en-US';
  const money = (cents: number) =>
    new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' }).format(cents / 100);
  // A calendar day: formatted at noon UTC so no zone moves it.
  const day = (d: string) =>
    new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${d}T12:00:00Z`));
  let receiptFacts: Pick<InstallmentFacts, 'txnId' | 'approvalCode' | 'remaining' | 'planTotal'> = {};
  if (receipt) {
    const r = await q.query<{ count: number; cents: string | null; next_on: string | null; total_cents: string }>(
      `select count(i.id)::int as count, sum(i.amount_cents)::text as cents,
              to_char(min(i.due_on), 'YYYY-MM-DD') as next_on, p.total_cents::text as total_cents
         from payment_plan p left join plan_installment i
           on i.plan_id = p.id and i.status in ('scheduled', 'notified', 'failed')
        where p.link_id = $1 group by p.total_cents`,
      [row.linkId],
    );
    const rest = r.rows[0];
    receiptFacts = {
      txnId: receipt.txn.txnId,
      approvalCode: receipt.txn.approvalCode,
      remaining: {
        count: rest?.count ?? 0,
        amount: money(Number(rest?.cents ?? 0)),
        nextDate: rest?.next_on ? day(rest.next_on) : null,
      },
      ...(rest ? { planTotal: money(Number(rest.total_cents)) } : {}),
    };
  }
  return {
    practice,
    practiceName: practice.name,
    practicePhone: practice.supportPhone,
    firstName: link.first_name,
    n: row.n,
    count: row.count,
    amount: money(row.amountCents),
    date: day(date),
    last4: card?.last4 ?? null,
    brand: card?.brand ? cardBrandName(card.brand) : null,
    cardExpired: card ? cardExpiresBefore({ month: card.exp_month, year: card.exp_year }, date) : false,
    ...receiptFacts,
  };
}

/**
 * SMS when the link has a phone, else e-mail; a receipt by e-mail first (it carries the card, the transaction id, the
 * approval code and what remains: too much for a text). Nothing to an opted-out address.
 */
export async function tellPatient(
  tx: Queryable,
  opts: Pick<RunPlanSchedulerOptions, 'config'>,
  link: LinkFacts,
  kind: PlanMessageKind,
  facts: InstallmentFacts & { practice: PracticeInfo },
): Promise<string | null> {
  const url = patientUrl(opts.config, link, CARD_PAGE_KINDS.has(kind) ? 'card' : undefined);
  const bySms = async () => {
    if (!link.phone || (await isOptedOut(tx, 'sms', link.phone))) return null;
    const text = planSms(kind, link.language, facts, url);
    return (await enqueueMessage(tx, { channel: 'sms', to: link.phone, text, linkId: link.id, kind })).id;
  };
  const byEmail = async () => {
    if (!link.email || (await isOptedOut(tx, 'email', link.email))) return null;
    const mail = composeEmail(PLAN_EMAILS[kind], facts, { lang: link.language, practice: facts.practice, url });
    return (await enqueueMessage(tx, { channel: 'email', to: link.email, ...mail, linkId: link.id, kind })).id;
  };
  return EMAIL_FIRST_KINDS.has(kind) ? ((await byEmail()) ?? bySms()) : ((await bySms()) ?? byEmail());
}

/** Receipts go by e-mail when the patient has an address (decision 0248). */
const EMAIL_FIRST_KINDS: ReadonlySet<PlanMessageKind> = new Set(['plan-receipt', 'plan-completed']);

/** The patient's link; `next=card` opens the update-card page after sign-in (decision 0211). */
function patientUrl(config: Config, link: LinkFacts, page?: 'card'): string {
  const url = `${personalLinkUrl(config.publicUrl, link.id)}${page ? `&next=${page}` : ''}`;
  return link.language === 'es' ? `${url}&lng=es` : url;
}

/** The messages that ask the patient for another card link straight to the update-card page. */
const CARD_PAGE_KINDS: ReadonlySet<PlanMessageKind> = new Set([
  'plan-declined',
  'plan-failed',
  'plan-card-expiring',
  'plan-notice-card-expired',
]);

// ---- quiet hours --------------------------------------------------------------------------------------------------

/** The practice's quiet hours as the reminders use them (its reminder plan, else REMINDER_QUIET_HOURS). */
async function quietHours(q: Queryable, config: Config): Promise<{ start: number; end: number } | null> {
  const r = await q.query<{ quiet_start: number | null; quiet_end: number | null }>(
    `select quiet_start, quiet_end from reminder_plan where practice_id = 1`,
  );
  const row = r.rows[0];
  if (!row) return config.REMINDER_QUIET_HOURS;
  return row.quiet_start === null || row.quiet_end === null ? null : { start: row.quiet_start, end: row.quiet_end };
}

/** The first whole UTC hour after `at` outside the quiet hours (half an hour late at most in a :30 zone). */
function quietEnd(at: Date, timeZone: string, quiet: { start: number; end: number } | null): Date {
  let t = new Date(Math.floor(at.getTime() / 3_600_000) * 3_600_000);
  for (let i = 0; i < 24; i++) {
    t = new Date(t.getTime() + 3_600_000);
    if (!isQuiet(t, timeZone, quiet)) break;
  }
  return t;
}
