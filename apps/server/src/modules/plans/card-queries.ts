import { agreementCardLabel, nameAgreementCard } from '@paylink/shared';
import { sql } from 'kysely';
import { createHash } from 'node:crypto';
import type { Queryable } from '../../db/client.js';
import { typed } from '../../db/typed.js';
import { redactDigitRuns } from '../../lib/digit-runs.js';

/** The card a plan charges now (the deposit's, or a later update's), without its token. */
export interface CurrentCard {
  id: string;
  brand: string | null;
  last4: string | null;
  expMonth: number | null;
  expYear: number | null;
}

export async function findCurrentCard(q: Queryable, linkId: string): Promise<CurrentCard | null> {
  const r = await typed(q)
    .selectFrom('stored_card')
    .select(['id', 'brand', 'last4', 'exp_month', 'exp_year'])
    .where('link_id', '=', linkId)
    .where('replaced_at', 'is', null)
    .executeTakeFirst();
  return r ? { id: String(r.id), brand: r.brand, last4: r.last4, expMonth: r.exp_month, expYear: r.exp_year } : null;
}

/** A new card replaces the link's current one (one current card per link: stored_card_current_idx). */
export async function storeCard(
  q: Queryable,
  o: {
    linkId: string;
    tokenSealed: string;
    brand: string | null;
    last4: string | null;
    expMonth: number | null;
    expYear: number | null;
    /** The sale that stored it (the deposit), or null for a card stored by an update's verification. */
    paymentAttemptId: string | null;
    cardUpdateId?: string;
    approvalCode: string | null;
    ps2000Data: string | null;
  },
): Promise<string> {
  await typed(q)
    .updateTable('stored_card')
    .set({ replaced_at: sql`now()` })
    .where('link_id', '=', o.linkId)
    .where('replaced_at', 'is', null)
    .execute();
  const r = await typed(q)
    .insertInto('stored_card')
    .values({
      link_id: o.linkId,
      token_sealed: o.tokenSealed,
      brand: o.brand,
      last4: o.last4,
      exp_month: o.expMonth,
      exp_year: o.expYear,
      payment_attempt_id: o.paymentAttemptId,
      card_update_id: o.cardUpdateId ?? null,
      approval_code: o.approvalCode,
      ps2000_data: o.ps2000Data,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const cardId = String(r.id);
  // The agreements accepted before this card existed are the ones it was stored under; their words name it now, as
  // the gateway reported it (brand from the fixed list, last four), in the placeholder's place (decision 0240).
  const pending = await typed(q)
    .updateTable('card_agreement')
    .set({ stored_card_id: cardId })
    .where('link_id', '=', o.linkId)
    .where('stored_card_id', 'is', null)
    .returning(['id', 'language', 'text'])
    .execute();
  for (const a of pending) {
    const label = agreementCardLabel(o.brand, o.last4, a.language);
    if (!a.text || !label) continue;
    const text = guardAgreementText(nameAgreementCard(a.text, a.language, label));
    if (text === a.text) continue;
    await typed(q)
      .updateTable('card_agreement')
      .set({ text, text_sha256: sha256(text) })
      .where('id', '=', a.id)
      .execute();
  }
  return cardId;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The agreement store's guard (decision 0240): words are kept with any digit run redacted. It never throws: it also
 * runs inside the deposit's approval (storeCard), which must record a charged sale whatever the words hold. The
 * words are the server's own (the card named by the server, the practice's phone formatted), so this is a last
 * line, not a check anyone is expected to fail.
 */
function guardAgreementText(text: string): string {
  return redactDigitRuns(text);
}

/** When this link's patient last accepted the given version of the agreement, or null. */
export async function agreementAcceptedAt(q: Queryable, linkId: string, version: string): Promise<string | null> {
  const r = await typed(q)
    .selectFrom('card_agreement')
    .select('accepted_at')
    .where('link_id', '=', linkId)
    .where('text_version', '=', version)
    .orderBy('accepted_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return r ? new Date(r.accepted_at).toISOString() : null;
}

export async function insertAgreement(
  q: Queryable,
  o: {
    linkId: string;
    version: string;
    language: 'en' | 'es';
    ip: string | null;
    userAgent: string | null;
    /** The server's words (the card not named yet): kept, digit runs redacted, with their SHA-256. */
    text: string | null;
  },
): Promise<string> {
  const text = o.text === null ? null : guardAgreementText(o.text);
  const r = await typed(q)
    .insertInto('card_agreement')
    .values({
      link_id: o.linkId,
      text_version: o.version,
      language: o.language,
      ip: o.ip,
      user_agent: o.userAgent === null ? null : redactDigitRuns(o.userAgent.slice(0, 1000)),
      text,
      text_sha256: text === null ? null : sha256(text),
    })
    .returning('accepted_at')
    .executeTakeFirstOrThrow();
  return new Date(r.accepted_at).toISOString();
}

/** The deposit was approved without a token: the plan has no card to charge until the patient enters one. */
export async function markCardNeeded(q: Queryable, planId: string): Promise<void> {
  await typed(q)
    .updateTable('payment_plan')
    .set({ card_needed_at: sql`now()`, updated_at: sql`now()` })
    .where('id', '=', planId)
    .execute();
}
