import {
  agreementText,
  CARD_ON_FILE_AGREEMENT_VERSION,
  cardOnFileAgreement,
  PLAN_NOTICE_DAYS,
  planSchedule,
  planScheduleLine,
  addDays,
  isoDateInZone,
  type Language,
  type PatientPlan,
  type PatientPlanView,
} from '@paylink/shared';
import { typed } from '../../db/typed.js';
import type { Db, Queryable } from '../../db/client.js';
import { liveSessionSql, sessionEnded, type SessionClaim } from '../../http/session-tokens.js';
import { writeAudit, type Actor } from '../../lib/audit.js';
import { AppError, notFound } from '../../lib/errors.js';
import { loadPracticeInfo, type PracticeInfo } from '../../messages/index.js';
import { findLink, findPayment } from '../links/index.js';
import { agreementAcceptedAt, findCurrentCard, insertAgreement } from './card-queries.js';
import { findPlanByLink, listInstallments } from './plans-queries.js';
import { PLAN_RETRY_DAYS } from './run-plan-scheduler.js';
import { cardExpiresBefore } from './upcoming-charges.js';

const dollars = (cents: number) => cents / 100;
const noPlan = () => notFound('This link has no payment plan.');

/**
 * GET /api/plans/:linkId: the plan as the patient sees it. Before the deposit the amounts follow the amount chosen on
 * the patient information page (balance = total − chosen; the total when nothing is chosen yet); after it, the stored
 * instalments and the card the deposit stored. Audited as every patient read is.
 */
export async function showPatientPlan(opts: {
  db: Db;
  actor: Actor;
  /** The caller's token claim, for this link: its session row is checked here, in the first statement. */
  claim: SessionClaim;
  linkId: string;
  practiceFallback?: Partial<PracticeInfo>;
  /** The practice's zone (read only for a plan): the days of a decline and of the next try are its calendar days. */
  timeZone?: () => Promise<string>;
}): Promise<PatientPlanView> {
  // Most links have no plan, and the page asks anyway: the session's row check and "is there a plan" are one
  // statement, not a session read and a transaction of three (issue 30). A dead session is refused 401 first.
  const first = await typed(opts.db)
    .selectNoFrom((eb) => [
      liveSessionSql(opts.claim).as('live'),
      eb
        .exists(eb.selectFrom('payment_plan').select(eb.lit(1).as('one')).where('link_id', '=', opts.linkId))
        .as('has_plan'),
    ])
    .executeTakeFirstOrThrow();
  if (!first.live) throw sessionEnded();
  if (!first.has_plan) throw noPlan();
  const plan = await findPlanByLink(opts.db, opts.linkId);
  if (!plan) throw noPlan();
  // Read on the pool before the transaction (PGlite's one connection would wait for it inside one).
  const timeZone = (await opts.timeZone?.()) ?? 'UTC';
  return opts.db.transaction(async (tx) => {
    const { projected, balanceCents, installments } = await patientSchedule(tx, plan, opts.linkId);
    const card = projected ? null : await findCurrentCard(tx, opts.linkId);
    const declines = projected ? new Map<number, Declined>() : await declinesOf(tx, plan.id, timeZone);
    // The first charge still to come that the card on file will have expired by (decision 0247).
    const expiresBefore =
      card &&
      installments.find(
        (i) =>
          (i.status === 'scheduled' || i.status === 'notified') &&
          cardExpiresBefore({ month: card.expMonth, year: card.expYear }, i.dueOn),
      );
    const practice = await loadPracticeInfo(tx, opts.practiceFallback);
    const acceptedAt = await agreementAcceptedAt(tx, opts.linkId, CARD_ON_FILE_AGREEMENT_VERSION);
    await writeAudit(tx, {
      ...opts.actor,
      action: 'plan.read',
      linkId: opts.linkId,
      details: { status: plan.status, projected },
    });
    return {
      kind: plan.shape.kind,
      total: dollars(plan.totalCents),
      deposit: plan.depositCents === null ? null : dollars(plan.depositCents),
      balance: dollars(balanceCents),
      projected,
      installments: installments.map((i) => ({
        n: i.n,
        dueOn: i.dueOn,
        amount: dollars(i.amountCents),
        status: i.status,
        lastDeclinedOn: declines.get(i.n)?.lastDeclinedOn ?? null,
        nextTryOn: declines.get(i.n)?.nextTryOn ?? null,
      })),
      shape: plan.shape,
      noticeDays: PLAN_NOTICE_DAYS,
      scheduleLines: { en: agreementSchedule(installments, 'en'), es: agreementSchedule(installments, 'es') },
      failedLines: { en: agreementFailed(installments, 'en'), es: agreementFailed(installments, 'es') },
      card: card?.last4 ? { brand: card.brand, last4: card.last4 } : null,
      cardExpiresBefore: expiresBefore ? expiresBefore.dueOn : null,
      practice: { name: practice.name, phone: practice.supportPhone, email: practice.supportEmail },
      agreement: { version: CARD_ON_FILE_AGREEMENT_VERSION, acceptedAt },
    };
  });
}

type Plan = NonNullable<Awaited<ReturnType<typeof findPlanByLink>>>;

interface Declined {
  lastDeclinedOn: string | null;
  nextTryOn: string | null;
}
/** Not declines: an unknown outcome (being reconciled) and a notice that could not be sent. */
const NOT_DECLINES = ['outcome_unknown', 'notice_undeliverable'];

/**
 * Which instalments were declined, the day of the last decline and of the next try, in the practice's calendar. A
 * retry is scheduled PLAN_RETRY_DAYS[attempts - 1] days after the decline, so the decline's day is read back from it;
 * a failed instalment (no more tries) was last declined on its last try's day, which the row no longer holds.
 */
async function declinesOf(q: Queryable, planId: string, timeZone: string): Promise<Map<number, Declined>> {
  const rows = await typed(q)
    .selectFrom('plan_installment')
    .select(['n', 'status', 'attempts', 'last_failure', 'next_attempt_at'])
    .where('plan_id', '=', planId)
    .where('attempts', '>', 0)
    .where('last_failure', 'is not', null)
    .where('last_failure', 'not in', NOT_DECLINES)
    .where('status', 'in', ['notified', 'failed'])
    .execute();
  const out = new Map<number, Declined>();
  for (const r of rows) {
    const next =
      r.status === 'notified' && r.next_attempt_at ? isoDateInZone(new Date(r.next_attempt_at), timeZone) : null;
    const delay = PLAN_RETRY_DAYS[r.attempts - 1];
    out.set(r.n, { lastDeclinedOn: next && delay !== undefined ? addDays(next, -delay) : null, nextTryOn: next });
  }
  return out;
}
interface ScheduledInstallment {
  n: number;
  dueOn: string;
  amountCents: number;
  status: PatientPlan['installments'][0]['status'];
}

/**
 * The schedule the patient's page shows: before the deposit, projected from the amount chosen on the patient
 * information page; after it, the stored instalments.
 */
async function patientSchedule(
  tx: Queryable,
  plan: Plan,
  linkId: string,
): Promise<{ projected: boolean; balanceCents: number; installments: ScheduledInstallment[] }> {
  if (plan.balanceCents !== null) {
    return { projected: false, balanceCents: plan.balanceCents, installments: await listInstallments(tx, plan.id) };
  }
  const chosen = (await findPayment(tx, linkId))?.amount_cents ?? 0;
  const balanceCents = Math.max(0, plan.totalCents - chosen);
  const installments = planSchedule(plan.shape, balanceCents).map((i) => ({ ...i, status: 'scheduled' as const }));
  return { projected: true, balanceCents, installments };
}

/**
 * POST /api/plans/:linkId/agreement: the patient accepts the card-on-file agreement shown on the payment page. Only
 * the current version is taken; when the page sends the words it showed they must be the server's words for this
 * plan now (409 otherwise), and they are kept with their SHA-256 (decision 0214), the card left unnamed: storing the
 * card names it from the gateway's answer, never from the page's label (decision 0240). Each acceptance is a new row with
 * the language, the address and the user agent, and an audit entry.
 */
export async function acceptPlanAgreement(opts: {
  db: Db;
  actor: Actor;
  linkId: string;
  version: string;
  userAgent: string | null;
  /** The words as the page showed them, their language and the card they named (see planAgreementBodySchema). */
  shown?: { lang?: Language; text?: string; cardLabel?: string | null };
  practiceFallback?: Partial<PracticeInfo>;
}): Promise<{ version: string; acceptedAt: string }> {
  if (opts.version !== CARD_ON_FILE_AGREEMENT_VERSION) {
    throw new AppError(
      'agreement_outdated',
      'The card-on-file agreement has changed since this page was loaded. Reload the page and read it again.',
    );
  }
  return opts.db.transaction(async (tx) => {
    const plan = await findPlanByLink(tx, opts.linkId, { forUpdate: true });
    if (!plan) throw noPlan();
    if (plan.status === 'cancelled' || plan.status === 'completed') {
      throw new AppError('plan_closed', 'This payment plan has ended: there is nothing left to charge to a card.');
    }
    const link = (await findLink(tx, opts.linkId))!;
    const language = opts.shown?.lang ?? link.language;
    const shownText = opts.shown?.text;
    let kept: string | null = null;
    if (shownText !== undefined) {
      // Our own words for this plan now, with the card as the page named it: the page's words must be these, or the
      // patient read something else (the schedule or the practice's details changed since the page loaded).
      const ours = await agreementWordsNow(tx, plan, opts.linkId, language, opts);
      if (shownText !== ours(opts.shown?.cardLabel ?? null)) {
        throw new AppError(
          'agreement_changed',
          'The plan or the practice’s details changed since this page was loaded, so the agreement shown is not ' +
            'the current one. Reload the page, read the agreement again and accept it.',
        );
      }
      // Kept: the same words with the card left unnamed. The browser's label is never stored: storing the card names
      // it from the gateway's answer, so the record names the card the patient paid with (decision 0240).
      kept = ours(null);
    }
    const acceptedAt = await insertAgreement(tx, {
      linkId: opts.linkId,
      version: opts.version,
      language,
      ip: opts.actor.ip ?? null,
      userAgent: opts.userAgent,
      // Without the page's words (an API client) none are kept: the record rebuilds them from the stored facts.
      text: kept,
    });
    await writeAudit(tx, {
      ...opts.actor,
      action: 'plan.agreement_accepted',
      linkId: opts.linkId,
      details: {
        version: opts.version,
        language,
        wordsKept: shownText !== undefined,
        userAgent: opts.userAgent?.slice(0, 200) ?? null,
      },
    });
    return { version: opts.version, acceptedAt };
  });
}

/** The charges still to come, one line each as the agreement words them ("January 15, 2027: $1,500.00"). */
function agreementSchedule(installments: ScheduledInstallment[], lang: Language): string[] {
  return installments
    .filter((i) => i.status === 'scheduled' || i.status === 'notified')
    .map((i) => planScheduleLine(i, lang === 'es' ? 'es-US' : 'en-US'));
}

/** The declined payments no longer tried automatically, worded alike: a new card is kept for them too (0249). */
function agreementFailed(installments: ScheduledInstallment[], lang: Language): string[] {
  return installments
    .filter((i) => i.status === 'failed')
    .map((i) => planScheduleLine(i, lang === 'es' ? 'es-US' : 'en-US'));
}

async function agreementWordsNow(
  tx: Queryable,
  plan: Plan,
  linkId: string,
  language: Language,
  opts: { practiceFallback?: Partial<PracticeInfo> },
): Promise<(card: string | null) => string> {
  const { installments } = await patientSchedule(tx, plan, linkId);
  const practice = await loadPracticeInfo(tx, opts.practiceFallback);
  return (card) =>
    agreementText(
      cardOnFileAgreement[language]({
        practice: practice.name,
        practicePhone: practice.supportPhone,
        practiceEmail: practice.supportEmail,
        schedule: agreementSchedule(installments, language),
        failed: agreementFailed(installments, language),
        noticeDays: PLAN_NOTICE_DAYS,
        card,
      }),
    );
}

/** What payments asks before a deposit's token (LinkPlans.depositTerms). */
export async function depositTerms(
  q: Queryable,
  linkId: string,
): Promise<{ storeCard: boolean; agreementAccepted: boolean } | null> {
  const plan = await findPlanByLink(q, linkId);
  if (!plan) return null;
  const accepted = await agreementAcceptedAt(q, linkId, CARD_ON_FILE_AGREEMENT_VERSION);
  // A plan cancelled before its deposit has nothing to charge later: that deposit is an ordinary payment.
  return { storeCard: plan.status === 'pending', agreementAccepted: accepted !== null };
}
