import {
  agreementCardLabel,
  agreementWords,
  cardOnFileAgreementOfVersion,
  PLAN_NOTICE_DAYS,
  planScheduleLine,
  type Language,
} from '@paylink/shared';
import { sql } from 'kysely';
import type { Queryable } from '../../db/client.js';
import { typed } from '../../db/typed.js';
import { redactDigitRuns } from '../../lib/digit-runs.js';
import { loadPracticeInfo, type PracticeInfo } from '../../messages/index.js';
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
  /**
   * The card stored under this acceptance, as the gateway reported it (brand code, last four), and how: by the
   * deposit's sale or by a card update's verification. Null while no card was stored under it (before the deposit,
   * or a card update not completed).
   */
  card: { brand: string | null; last4: string | null; storedBy: 'deposit' | 'card_update' } | null;
}

/** A plan link's stored schedule and accepted agreement: what the receipt and the evidence pack show. */
export interface PlanRecord {
  lang: Language;
  installments: PlanRecordInstallment[];
  /** The latest acceptance (the receipt's). */
  agreement: PlanAgreementRecord | null;
  /** Every acceptance, oldest first: the deposit's, then each card update's (issue 41, item 6). */
  agreements: PlanAgreementRecord[];
}

/**
 * A plan link's record, or null for a link without a plan or before its deposit stored the instalments. Every
 * acceptance, oldest first, in the words kept with it (decision 0214; the card named by the server, decision 0240),
 * with the card stored under it; `agreement` is the latest. An acceptance kept without words (before 0214, or an API
 * client's) is rebuilt in its language from the stored schedule and its card.
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
  const rows2 = await typed(q)
    .selectFrom('card_agreement as a')
    .leftJoin('stored_card as c', 'c.id', 'a.stored_card_id')
    .select([
      'a.text_version',
      'a.language',
      'a.accepted_at',
      'a.ip',
      'a.user_agent',
      'a.text',
      'c.id as card_id',
      'c.brand',
      'c.last4',
      'c.card_update_id',
    ])
    .where('a.link_id', '=', linkId)
    .orderBy('a.accepted_at')
    .orderBy('a.id')
    .execute();
  const agreements: PlanAgreementRecord[] = [];
  for (const a of rows2) {
    const lang = a.language;
    // The words kept with the acceptance (decision 0214); older acceptances are rebuilt from the stored facts, in the
    // words of the version they were accepted under.
    const card = a.card_id === null ? null : { brand: a.brand, last4: a.last4 };
    const words = a.text
      ? agreementWords(a.text)
      : await rebuildAgreement(q, a.text_version, lang, installments, practice, card);
    // Rows written before the digit-run guard are read through it too (decision 0240).
    agreements.push({
      version: a.text_version,
      language: lang,
      acceptedAt: new Date(a.accepted_at).toISOString(),
      ip: a.ip,
      userAgent: a.user_agent === null ? null : redactDigitRuns(a.user_agent),
      title: redactDigitRuns(words.title),
      paragraphs: words.paragraphs.map(redactDigitRuns),
      card:
        a.card_id === null
          ? null
          : { brand: a.brand, last4: a.last4, storedBy: a.card_update_id ? 'card_update' : 'deposit' },
    });
  }
  return { lang: link?.language ?? 'en', installments, agreement: agreements.at(-1) ?? null, agreements };
}

async function rebuildAgreement(
  q: Queryable,
  version: string,
  lang: Language,
  installments: { dueOn: string; amountCents: number }[],
  practice: { loaded?: PracticeInfo; fallback?: Partial<PracticeInfo> },
  /** The card stored under this acceptance. */
  card: { brand: string | null; last4: string | null } | null,
): Promise<{ title: string; paragraphs: string[] }> {
  const pr = practice.loaded ?? (await loadPracticeInfo(q, practice.fallback));
  return cardOnFileAgreementOfVersion(version)[lang]({
    practice: pr.name,
    practicePhone: pr.supportPhone,
    practiceEmail: pr.supportEmail,
    schedule: installments.map((i) => planScheduleLine(i, LOCALE[lang])),
    noticeDays: PLAN_NOTICE_DAYS,
    card: card ? agreementCardLabel(card.brand, card.last4, lang) : null,
  });
}
