import {
  agreementWords,
  cardBrandName,
  cardOnFileAgreement,
  PLAN_NOTICE_DAYS,
  planScheduleLine,
  type Language,
} from '@paylink/shared';
import { sql } from 'kysely';
import type { Queryable } from '../../db/client.js';
import { typed } from '../../db/typed.js';
import { loadPracticeInfo, type PracticeInfo } from '../../messages/index.js';
import { findCurrentCard } from './card-queries.js';
import { findPlanByLink } from './plans-queries.js';

const LOCALE = { en: 'en-US', es: 'es-US' } as const;

export interface PlanRecordInstallment {
  n: number;
  dueOn: string;
  amountCents: number;
  status: 'scheduled' | 'notified' | 'paid' | 'failed' | 'cancelled' | 'refunded';
  gatewayTxnId: string | null;
}

/** The card-on-file agreement a link's patient accepted, in the words kept with it (or rebuilt, before 0214). */
export interface PlanAgreementRecord {
  version: string;
  language: Language;
  acceptedAt: string;
  ip: string | null;
  userAgent: string | null;
  title: string;
  paragraphs: string[];
}

/** A plan link's stored schedule and accepted agreement: what the receipt and the evidence pack show. */
export interface PlanRecord {
  lang: Language;
  installments: PlanRecordInstallment[];
  agreement: PlanAgreementRecord | null;
}

/**
 * A plan link's record, or null for a link without a plan or before its deposit stored the instalments. The agreement
 * is the latest acceptance in the words kept with it, as the payment page showed them (decision 0214). An acceptance
 * kept without words (before that decision) is rebuilt in its language from the stored schedule and the card.
 */
export async function planRecord(
  q: Queryable,
  linkId: string,
  practice: { loaded?: PracticeInfo; fallback?: Partial<PracticeInfo> } = {},
): Promise<PlanRecord | null> {
  const plan = await findPlanByLink(q, linkId);
  if (!plan || plan.balanceCents === null) return null;
  const rows = await typed(q)
    .selectFrom('plan_installment')
    .select(['n', 'amount_cents', 'status', 'gateway_txn_id', sql<string>`to_char(due_on, 'YYYY-MM-DD')`.as('due_on')])
    .where('plan_id', '=', plan.id)
    .orderBy('n')
    .execute();
  const installments = rows.map((r) => ({
    n: r.n,
    dueOn: r.due_on,
    amountCents: Number(r.amount_cents),
    status: r.status,
    gatewayTxnId: r.gateway_txn_id,
  }));
  const link = await typed(q).selectFrom('link').select('language').where('id', '=', linkId).executeTakeFirst();
  const accepted = await typed(q)
    .selectFrom('card_agreement')
    .select(['text_version', 'language', 'accepted_at', 'ip', 'user_agent', 'text'])
    .where('link_id', '=', linkId)
    .orderBy('accepted_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  let agreement: PlanAgreementRecord | null = null;
  if (accepted) {
    const lang = accepted.language;
    // The words kept with the acceptance (decision 0214); older acceptances are rebuilt from the stored facts.
    const words = accepted.text
      ? agreementWords(accepted.text)
      : await rebuildAgreement(q, linkId, lang, installments, practice);
    agreement = {
      version: accepted.text_version,
      language: lang,
      acceptedAt: new Date(accepted.accepted_at).toISOString(),
      ip: accepted.ip,
      userAgent: accepted.user_agent,
      ...words,
    };
  }
  return { lang: link?.language ?? 'en', installments, agreement };
}

async function rebuildAgreement(
  q: Queryable,
  linkId: string,
  lang: Language,
  installments: { dueOn: string; amountCents: number }[],
  practice: { loaded?: PracticeInfo; fallback?: Partial<PracticeInfo> },
): Promise<{ title: string; paragraphs: string[] }> {
  const pr = practice.loaded ?? (await loadPracticeInfo(q, practice.fallback));
  const card = await findCurrentCard(q, linkId);
  const brand = card?.brand ? cardBrandName(card.brand) : null;
  return cardOnFileAgreement[lang]({
    practice: pr.name,
    practicePhone: pr.supportPhone,
    practiceEmail: pr.supportEmail,
    schedule: installments.map((i) => planScheduleLine(i, LOCALE[lang])),
    noticeDays: PLAN_NOTICE_DAYS,
    card:
      brand && card?.last4
        ? lang === 'es'
          ? `${brand} terminada en ${card.last4}`
          : `${brand} ending in ${card.last4}`
        : null,
  });
}
