import { addDays, cardBrandName, isoDateInZone, PLAN_NOTICE_DAYS, type Language } from '@paylink/shared';
import { randomBytes } from 'node:crypto';
import type { Config } from '../../config.js';
import { sql } from 'kysely';
import { retryingTransaction, type Db, type Queryable } from '../../db/client.js';
import { typed, type Row } from '../../db/typed.js';
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
  const due = await typed(opts.db)
    .selectFrom('stored_card as c')
    .innerJoin('payment_plan as p', 'p.link_id', 'c.link_id')
    .select(['c.id as card_id', 'c.link_id', 'p.id as plan_id'])
    .where('c.replaced_at', 'is', null)
    .where('c.expiry_notified_at', 'is', null)
    .where('c.exp_year', 'is not', null)
    .where('p.status', '=', 'active')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('plan_installment as i')
          .select(eb.lit(1).as('one'))
          .whereRef('i.plan_id', '=', 'p.id')
          .where('i.status', 'in', OPEN_TO_CLAIM)
          // the card's last valid day is the end of its expiry month
          .where('i.due_on', '>=', CARD_INVALID_FROM)
          .where(sql<Date>`i.due_on - ${CARD_EXPIRY_NOTICE_DAYS}::int`, '<=', sql<Date>`${today}::date`),
      ),
    )
    .orderBy('c.id')
    .limit(50)
    .execute();
  let asked = 0;
  for (const { card_id, link_id, plan_id } of due) {
    const row = { card_id: String(card_id), link_id, plan_id: String(plan_id) };
    const done = await opts.db.transaction(async (tx) => {
      const claim = await typed(tx)
        .updateTable('stored_card')
        .set({ expiry_notified_at: sql`now()` })
        .where('id', '=', row.card_id)
        .where('expiry_notified_at', 'is', null)
        .where('replaced_at', 'is', null)
        .executeTakeFirst();
      if (Number(claim.numUpdatedRows) !== 1) return false; // another process asked, or the card was just replaced
      const inst = await typed(tx)
        .selectFrom(['plan_installment as i', 'stored_card as c'])
        .select(['i.n', sql<string>`to_char(i.due_on, 'YYYY-MM-DD')`.as('due_on'), 'i.amount_cents'])
        .where('i.plan_id', '=', row.plan_id)
        .where('c.id', '=', row.card_id)
        .where('i.status', 'in', OPEN_TO_CLAIM)
        .where('i.due_on', '>=', CARD_INVALID_FROM)
        .orderBy('i.due_on')
        .limit(1)
        .executeTakeFirst();
      if (!inst) return false;
      const plan = await typed(tx)
        .selectFrom('payment_plan')
        .select('installment_count as count')
        .where('id', '=', row.plan_id)
        .executeTakeFirst();
      const link = await loadLink(tx, row.link_id);
      const claimedLike = {
        linkId: row.link_id,
        n: inst.n,
        count: plan?.count ?? 1,
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
  const now = sql<Date>`${o.now.toISOString()}::timestamptz`;
  const today = sql<Date>`${o.today}::date`;
  return db.transaction(async (tx) => {
    const r = await typed(tx)
      .with('due', (db) =>
        db
          .selectFrom('plan_installment as i')
          .innerJoin('payment_plan as p', 'p.id', 'i.plan_id')
          .select('i.id')
          .where('p.status', '=', 'active')
          .where('i.status', 'in', OPEN_TO_CLAIM)
          .where((eb) => eb.or([eb('i.claim_expires_at', 'is', null), eb('i.claim_expires_at', '<', sql<Date>`now()`)]))
          // A retry's time, or a held notice's next look (quiet hours, nobody to tell): not before it.
          .where((eb) => eb.or([eb('i.next_attempt_at', 'is', null), eb('i.next_attempt_at', '<=', now)]))
          .where((eb) =>
            eb.or([
              eb.and([
                eb('i.status', '=', 'scheduled'),
                eb(sql<Date>`i.due_on - ${PLAN_NOTICE_DAYS}::int`, '<=', today),
              ]),
              eb.and([
                eb('i.status', '=', 'notified'),
                eb('i.due_on', '<=', today),
                // The notice period gates the first try; a retry (or a staff charge now) is timed by next_attempt_at.
                eb.or([
                  eb('i.attempts', '>', 0),
                  eb(sql<Date>`i.notified_at + make_interval(days => ${PLAN_NOTICE_DAYS}::int)`, '<=', now),
                ]),
              ]),
            ]),
          )
          .where('i.id', '<>', sql<string>`all(${o.exclude}::bigint[])`)
          .orderBy('i.due_on')
          .orderBy('i.id')
          .limit(o.limit)
          .forUpdate('i')
          .skipLocked(),
      )
      .updateTable('plan_installment as i')
      .from(['due', 'payment_plan as p'])
      .set({ claimed_by: o.runId, claim_expires_at: leaseEnd(LEASE_SECONDS), updated_at: sql`now()` })
      .whereRef('i.id', '=', 'due.id')
      .whereRef('p.id', '=', 'i.plan_id')
      .returning(CLAIMED_COLUMNS)
      .execute();
    return r.map(toClaimed).sort((a, b) => a.dueOn.localeCompare(b.dueOn) || Number(a.id) - Number(b.id));
  });
}

/** The claim's lease (or a hold's) ends `secs` from the database's now. */
const leaseEnd = (secs: number) => sql<Date>`now() + make_interval(secs => ${secs}::int)`;

/** The first due day a card no longer covers: the day after the end of its expiry month. */
const CARD_INVALID_FROM = sql<Date>`make_date(c.exp_year, c.exp_month, 1) + interval '1 month'`;

/**
 * The statuses of the partial index plan_installment_open_idx, as SQL literals (not bound parameters): a generic plan
 * can then still prove the index's predicate, as it could with the hand-written SQL.
 */
const OPEN_TO_CLAIM = [sql.lit('scheduled' as const), sql.lit('notified' as const)];

/** A claimed row as read or returned over `plan_installment as i` joined to its `payment_plan as p`. */
const CLAIMED_COLUMNS = [
  'i.id',
  'i.plan_id',
  'p.link_id',
  'i.n',
  'p.installment_count as count',
  sql<string>`to_char(i.due_on, 'YYYY-MM-DD')`.as('due_on'),
  'i.amount_cents',
  'i.status',
  'i.attempts',
  'i.merchant_txn_id',
  'i.last_failure',
  'i.updated_at as claimed_at',
] as const;

interface ClaimedRow {
  id: string | number | bigint;
  plan_id: string | number | bigint;
  link_id: string;
  n: number;
  count: number;
  due_on: string;
  amount_cents: string | number;
  status: Row<'plan_installment'>['status'];
  attempts: number;
  merchant_txn_id: string;
  last_failure: string | null;
  claimed_at: Date | string;
}

const toClaimed = (x: ClaimedRow): Claimed => ({
  id: String(x.id),
  planId: String(x.plan_id),
  linkId: x.link_id,
  n: x.n,
  count: x.count,
  dueOn: x.due_on,
  amountCents: Number(x.amount_cents),
  // Claimed only from scheduled or notified (charge now moves a failed one to notified first).
  status: x.status as Claimed['status'],
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
    const r = await typed(tx)
      .updateTable('plan_installment as i')
      .from('payment_plan as p')
      .set({
        claimed_by: runId,
        claim_expires_at: leaseEnd(LEASE_SECONDS),
        updated_at: sql`now()`,
        // Charged today at the patient's request: due today, so a decline follows the retry policy from today
        // and an unknown outcome is reconciled by the next pass, as for any due instalment.
        notified_at: sql`coalesce(i.notified_at, ${opts.now.toISOString()}::timestamptz)`,
        due_on: sql`least(i.due_on, ${isoDateInZone(opts.now, timeZone)}::date)`,
        merchant_txn_id: sql`case when i.status = 'failed' then ${randomBytes(12).toString('hex')} else i.merchant_txn_id end`,
        next_attempt_at: null,
      })
      .where('i.id', '=', opts.installmentId)
      .whereRef('p.id', '=', 'i.plan_id')
      .where('p.status', '=', 'active')
      .where('i.status', 'in', ['scheduled', 'notified', 'failed'])
      .where((eb) => eb.or([eb('i.claim_expires_at', 'is', null), eb('i.claim_expires_at', '<', sql<Date>`now()`)]))
      .returning(CLAIMED_COLUMNS)
      .executeTakeFirst();
    // The row is `notified` from here (plan-lifecycle: scheduled, notified or failed → notified).
    if (r) await moveClaimed(tx, toClaimed(r), runId, 'notified', {});
    return r;
  });
  if (!row) return null;
  // A charge sends no notice, so the quiet hours are not read.
  const once = { practice: practiceFor(opts.db, opts.config) };
  await once.practice;
  const outcome = await charge({ ...opts, once }, toClaimed(row), runId, timeZone);
  return outcome.kind as ChargeNowOutcome;
}

/** Lets go of the claim (or the hold). */
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

/**
 * Every write of a claimed row goes through its claim: a process whose lease was taken over writes nothing. With
 * `live`, only while the lease has not run out. The database's clock of the write.
 */
async function updateClaimed(
  tx: Queryable,
  row: Claimed,
  runId: string,
  set: InstallmentColumns,
  o: { live?: boolean } = {},
): Promise<Date> {
  let q = typed(tx)
    .updateTable('plan_installment')
    .set({ ...set, updated_at: sql`now()` })
    .where('id', '=', row.id)
    .where('claimed_by', '=', runId);
  if (o.live) q = q.where('claim_expires_at', '>', sql<Date>`now()`);
  const r = await q.returning(sql<Date | string>`now()`.as('at')).executeTakeFirst();
  if (!r) throw new Error(`plan installment ${row.id}: the claim was lost`);
  return new Date(r.at);
}

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
      updateClaimed(tx, row, runId, {
        next_attempt_at: quietEnd(opts.now, patientZone, quiet).toISOString(),
        ...RELEASED,
      }),
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
      await updateClaimed(tx, row, runId, {
        last_failure: NOTICE_UNDELIVERABLE,
        next_attempt_at: new Date(opts.now.getTime() + HELD_RECHECK_MS).toISOString(),
        ...RELEASED,
      });
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
      {
        attempts,
        last_failure: OUTCOME_UNKNOWN,
        claim_expires_at: leaseEnd(Math.max(LEASE_SECONDS, Math.ceil(opts.gateway.outcomeWindowMs / 1000))),
      },
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
      await updateClaimed(tx, row, runId, {
        claimed_by: UNKNOWN_HOLD,
        claim_expires_at: sql`${heldUntil.toISOString()}::timestamptz`,
      });
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
  const r = await typed(db)
    .selectFrom('plan_installment as i')
    .innerJoin('payment_plan as p', 'p.id', 'i.plan_id')
    .select(CLAIMED_COLUMNS)
    .where('i.claimed_by', '=', UNKNOWN_HOLD)
    .where('i.claim_expires_at', '>', sql<Date>`now()`)
    .where('i.last_failure', '=', OUTCOME_UNKNOWN)
    .where('i.status', '=', 'notified')
    .orderBy('i.claim_expires_at')
    .orderBy('i.id')
    .limit(50)
    .execute();
  return r.map(toClaimed);
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
  const taken = await typed(opts.db)
    .updateTable('plan_installment')
    .set({ claimed_by: runId, claim_expires_at: leaseEnd(LEASE_SECONDS), updated_at: sql`now()` })
    .where('id', '=', row.id)
    .where('claimed_by', '=', UNKNOWN_HOLD)
    .where('last_failure', '=', OUTCOME_UNKNOWN)
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) !== 1) return null; // another pass took it first
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
    const open = await typed(tx)
      .selectFrom('plan_installment')
      .select((eb) => eb.lit(1).as('one'))
      .where('plan_id', '=', row.planId)
      .where('status', 'not in', ['paid', 'cancelled', 'refunded'])
      .limit(1)
      .executeTakeFirst();
    if (open) return { kind: 'paid' as const, completed: false };
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
  const r = await typed(q)
    .selectFrom('link')
    .select(['id', 'first_name', 'phone', 'email', 'language', 'state', 'zip_code'])
    .where('id', '=', linkId)
    .executeTakeFirst();
  if (!r) throw new Error(`plan link ${linkId} not found`);
  return r;
}

async function currentCard(q: Queryable, linkId: string) {
  const r = await typed(q)
    .selectFrom('stored_card')
    .select(['token_sealed', 'last4', 'brand', 'exp_month', 'exp_year'])
    .where('link_id', '=', linkId)
    .where('replaced_at', 'is', null)
    .executeTakeFirst();
  return r ?? null;
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
    const rest = await typed(q)
      .selectFrom('payment_plan as p')
      .leftJoin('plan_installment as i', (j) =>
        j.onRef('i.plan_id', '=', 'p.id').on('i.status', 'in', ['scheduled', 'notified', 'failed']),
      )
      .select([
        sql<number>`count(i.id)::int`.as('count'),
        sql<string | null>`sum(i.amount_cents)::text`.as('cents'),
        sql<string | null>`to_char(min(i.due_on), 'YYYY-MM-DD')`.as('next_on'),
        'p.total_cents',
      ])
      .where('p.link_id', '=', row.linkId)
      .groupBy('p.total_cents')
      .executeTakeFirst();
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
  const row = await typed(q)
    .selectFrom('reminder_plan')
    .select(['quiet_start', 'quiet_end'])
    .where('practice_id', '=', 1)
    .executeTakeFirst();
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
