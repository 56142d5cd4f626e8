import { LINK_ID_PATTERN, LinkMessages } from '@paylink/shared';
import { sql } from 'kysely';
import type { Queryable } from '../../db/client.js';
import { checkSessionRow, liveSessionSql, sessionEnded, type SessionClaim } from '../../http/session-tokens.js';
import { typed, type Row } from '../../db/typed.js';
import { LinkStateError } from '../../lib/errors.js';

/** A link as stored; demo_label is set on demo links created at boot in sandbox mode (migration 0002). */
export type LinkRow = Row<'link'>;

/** What a link is now: 'expired' is derived (active and past expires_at). */
export type LinkState = 'active' | 'expired' | 'cancelled' | 'completed';

export function linkState(link: Pick<LinkRow, 'status' | 'expires_at'>, now = new Date()): LinkState {
  if (link.status !== 'active') return link.status;
  return new Date(link.expires_at).getTime() <= now.getTime() ? 'expired' : 'active';
}

/**
 * `linkState(...) === 'active'` as SQL, for statements that decide in the database whether a read is served (and
 * audited). Keep the two in step: read-patient-link.test.ts checks they agree on every state.
 */
export const USABLE_LINK_SQL = (alias: string) => `${alias}.status = 'active' and ${alias}.expires_at > now()`;

/** The 401 a link's state answers with (spec section 4); nothing for an active link. */
export function throwForLinkState(state: LinkState): void {
  if (state === 'expired') throw new LinkStateError(LinkMessages.expired);
  if (state === 'cancelled') throw new LinkStateError(LinkMessages.cancelled);
  if (state === 'completed') throw new LinkStateError(LinkMessages.completed);
}

export async function findLink(q: Queryable, id: string, opts: { forUpdate?: boolean } = {}): Promise<LinkRow | null> {
  if (!LINK_ID_PATTERN.test(id)) return null;
  const query = typed(q).selectFrom('link').selectAll().where('id', '=', id);
  return (await (opts.forUpdate ? query.forUpdate() : query).executeTakeFirst()) ?? null;
}

/** Generic text for unknown ids and any other refusal: nobody can tell an unknown link from a forbidden one. */
export const LINK_NOT_AUTHORIZED = 'Not Authorized';

/**
 * The link, if it can be used now; otherwise a 401 whose text body the client routes on (spec section 4).
 * Unknown ids get the same generic 401 as any other refusal.
 */
export async function requireUsableLink(
  q: Queryable,
  id: string,
  opts: { forUpdate?: boolean; signIn?: boolean } = {},
): Promise<LinkRow> {
  const link = await findLink(q, id, opts);
  if (!link) throw new LinkStateError(LINK_NOT_AUTHORIZED);
  const state = linkState(link);
  // Signing in (issue 28, decision 0211): a paid or expired link whose payment plan still has charges to come stays
  // open to its patient, who may need to replace the card. What the session may do is up to each route.
  if (opts.signIn && (state === 'completed' || state === 'expired') && (await hasOpenPlan(q, link.id))) return link;
  throwForLinkState(state);
  return link;
}

/**
 * `requireUsableLink(q, claim.linkId, { forUpdate: true })` for a patient's claim (from `claimForLink`), with the
 * claim's session row checked in the same locking read (issue 30: one statement, not two). As with the session guard
 * first, a revoked or expired session is refused 401 before the link's state is looked at.
 */
export async function lockLinkForSession(q: Queryable, claim: SessionClaim): Promise<LinkRow & { has_plan: boolean }> {
  const row = LINK_ID_PATTERN.test(claim.linkId)
    ? await typed(q)
        .selectFrom('link as l')
        .selectAll('l')
        .select(liveSessionSql(claim).as('session_live'))
        .select(HAS_PLAN_SQL.as('has_plan'))
        .where('l.id', '=', claim.linkId)
        .forUpdate('l')
        .executeTakeFirst()
    : undefined;
  if (!row) {
    await checkSessionRow(q, claim);
    throw new LinkStateError(LINK_NOT_AUTHORIZED);
  }
  const { session_live, ...link } = row;
  if (!session_live) throw sessionEnded();
  throwForLinkState(linkState(link));
  return link;
}

/**
 * Whether link `l` has a payment plan, in any status. A plan is created in its link's transaction or never
 * (POST /api/admin/links), so this never changes once the link exists: callers skip the plans module's reads for a
 * link without one (issue 30). The plans module's table, read here as hasOpenPlan does.
 */
export const HAS_PLAN_SQL = sql<boolean>`exists (select 1 from payment_plan pp where pp.link_id = l.id)`;

/**
 * An active or paused payment plan on the link. The plans module's table, read here with one statement because links
 * sits below plans in the module graph (it cannot ask plans through its index).
 */
async function hasOpenPlan(q: Queryable, linkId: string): Promise<boolean> {
  const r = await q.query(`select 1 from payment_plan where link_id = $1 and status in ('active', 'paused')`, [linkId]);
  return r.rowCount > 0;
}

export type StepRow = Row<'link_step'>;

/**
 * The spec's linkpaymenthistory: the chosen payment and, once approved, its result. One row per link.
 * receipt_channel/receipt_to (migration 0106): how the receipt was sent ('email' | 'sms' | 'none'), and to whom (masked).
 */
export type PaymentRow = Row<'payment'>;

export async function listSteps(q: Queryable, linkId: string): Promise<StepRow[]> {
  return typed(q).selectFrom('link_step').selectAll().where('link_id', '=', linkId).orderBy('position').execute();
}

export async function findPayment(q: Queryable, linkId: string): Promise<PaymentRow | null> {
  return (await typed(q).selectFrom('payment').selectAll().where('link_id', '=', linkId).executeTakeFirst()) ?? null;
}

export async function findPaymentById(
  q: Queryable,
  id: number,
  opts: { forUpdate?: boolean } = {},
): Promise<PaymentRow | null> {
  const query = typed(q).selectFrom('payment').selectAll().where('id', '=', id);
  return (await (opts.forUpdate ? query.forUpdate() : query).executeTakeFirst()) ?? null;
}

/** The patient's personal link: what the coordinator sends and what sign-in e-mails point to. */
export function personalLinkUrl(publicUrl: string, linkId: string): string {
  return `${publicUrl}/auth?id=${encodeURIComponent(linkId)}`;
}
