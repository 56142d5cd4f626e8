import { CARD_ON_FILE_AGREEMENT_VERSION, PLAN_NOTICE_DAYS, planSchedule, type PatientPlan } from '@paylink/shared';
import type { Db, Queryable } from '../../db/client.js';
import { writeAudit, type Actor } from '../../lib/audit.js';
import { AppError, notFound } from '../../lib/errors.js';
import { loadPracticeInfo, type PracticeInfo } from '../../messages/index.js';
import { findLink, findPayment } from '../links/index.js';
import { agreementAcceptedAt, findCurrentCard, insertAgreement } from './card-queries.js';
import { findPlanByLink, listInstallments } from './plans-queries.js';

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
  linkId: string;
  practiceFallback?: Partial<PracticeInfo>;
}): Promise<PatientPlan> {
  return opts.db.transaction(async (tx) => {
    const plan = await findPlanByLink(tx, opts.linkId);
    if (!plan) throw noPlan();
    const projected = plan.balanceCents === null;
    let balanceCents: number;
    let installments: {
      n: number;
      dueOn: string;
      amountCents: number;
      status: PatientPlan['installments'][0]['status'];
    }[];
    if (projected) {
      const chosen = (await findPayment(tx, opts.linkId))?.amount_cents ?? 0;
      balanceCents = Math.max(0, plan.totalCents - chosen);
      installments = planSchedule(plan.shape, balanceCents).map((i) => ({ ...i, status: 'scheduled' as const }));
    } else {
      balanceCents = plan.balanceCents!;
      installments = await listInstallments(tx, plan.id);
    }
    const card = projected ? null : await findCurrentCard(tx, opts.linkId);
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
      })),
      noticeDays: PLAN_NOTICE_DAYS,
      card: card?.last4 ? { brand: card.brand, last4: card.last4 } : null,
      practice: { name: practice.name, phone: practice.supportPhone, email: practice.supportEmail },
      agreement: { version: CARD_ON_FILE_AGREEMENT_VERSION, acceptedAt },
    };
  });
}

/**
 * POST /api/plans/:linkId/agreement: the patient accepts the card-on-file agreement shown on the payment page. Only
 * the current version is taken (the words the page showed must be the ones stored); each acceptance is a new row with
 * the link's language, the address and the user agent, and an audit entry.
 */
export async function acceptPlanAgreement(opts: {
  db: Db;
  actor: Actor;
  linkId: string;
  version: string;
  userAgent: string | null;
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
    const acceptedAt = await insertAgreement(tx, {
      linkId: opts.linkId,
      version: opts.version,
      language: link.language,
      ip: opts.actor.ip ?? null,
      userAgent: opts.userAgent,
    });
    await writeAudit(tx, {
      ...opts.actor,
      action: 'plan.agreement_accepted',
      linkId: opts.linkId,
      details: { version: opts.version, language: link.language, userAgent: opts.userAgent?.slice(0, 200) ?? null },
    });
    return { version: opts.version, acceptedAt };
  });
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
