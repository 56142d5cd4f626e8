import { paymentRefundState, type LinkSummary, type StaffPayment } from '@paylink/shared';
import { sql } from 'kysely';
import type { Queryable } from '../../db/client.js';
import { typed } from '../../db/typed.js';
import { linkState, personalLinkUrl, type LinkRow } from '../links/index.js';

type Iso = string | Date | null;
const iso = (d: Iso) => (d ? new Date(d).toISOString() : null);

/** A payment row as the staff views read it (the link list's JSON, the link page, the payments report). */
export interface PaymentJson {
  payment_type_id: number;
  payment_source_id: number;
  payor_full_name: string | null;
  payor_email: string | null;
  amount_cents: number;
  status: 'chosen' | 'approved';
  transaction_id: string | null;
  approval_code: string | null;
  card_brand: string | null;
  card_last4: string | null;
  paid_at: Iso;
  refunded_cents?: number;
}

export interface LinkSummaryRow extends LinkRow {
  steps_total: number;
  steps_completed: number;
  current_route: string | null;
  payment: PaymentJson | null;
}

/**
 * Derived state as SQL, so lists filter and count in the database ('expired' = active and past expires_at), over any
 * relation with the link's status and expires_at (link `l`, or link_progress).
 */
export const stateSqlOn = (t: string): Record<string, string> => ({
  active: `${t}.status = 'active' and ${t}.expires_at > now()`,
  expired: `${t}.status = 'active' and ${t}.expires_at <= now()`,
  cancelled: `${t}.status = 'cancelled'`,
  completed: `${t}.status = 'completed'`,
});
export const STATE_SQL: Record<string, string> = stateSqlOn('l');

/** Links with their step progress and payment (to_jsonb: the whole row, as toStaffPayment reads it). */
export function selectLinkSummaries(q: Queryable) {
  return (
    typed(q)
      .selectFrom('link as l')
      .selectAll('l')
      .select((eb) => [
        eb
          .selectFrom('link_step as s')
          .select(sql<number>`count(*)::int`.as('n'))
          .whereRef('s.link_id', '=', 'l.id')
          .as('steps_total'),
        eb
          .selectFrom('link_step as s')
          .select(sql<number>`count(*)::int`.as('n'))
          .whereRef('s.link_id', '=', 'l.id')
          .where('s.status_id', '=', 4)
          .as('steps_completed'),
        eb
          .selectFrom('link_step as s')
          .select('s.route_path')
          .whereRef('s.link_id', '=', 'l.id')
          .where('s.status_id', '<>', 4)
          .orderBy('s.position')
          .limit(1)
          .as('current_route'),
        eb
          .selectFrom('payment as p')
          .select(sql<PaymentJson>`to_jsonb(p)`.as('j'))
          .whereRef('p.link_id', '=', 'l.id')
          .as('payment'),
      ])
      // count(*) always answers a row.
      .$narrowType<{ steps_total: number; steps_completed: number }>()
  );
}

/** A link state filter as SQL: STATE_SQL's predicates are constants, never request text. */
export const whereState = (status: string) => sql<boolean>`(${sql.raw(STATE_SQL[status]!)})`;

/** The one staff read model of a payment (packages/shared's staffPaymentSchema), from any of the staff views' rows. */
export function toStaffPayment(p: PaymentJson): StaffPayment {
  return {
    paymentTypeId: p.payment_type_id,
    paymentSourceId: p.payment_source_id,
    payer: p.payment_source_id === 2 ? 'payor' : 'patient',
    payorFullName: p.payor_full_name,
    payorEmail: p.payor_email,
    amount: p.amount_cents / 100,
    status: p.status,
    transactionId: p.transaction_id,
    approvalCode: p.approval_code,
    cardBrand: p.card_brand,
    cardLast4: p.card_last4,
    paidAt: iso(p.paid_at),
    refunded: (p.refunded_cents ?? 0) / 100,
    refundState: paymentRefundState(p.amount_cents, p.refunded_cents ?? 0),
  };
}

export function toLinkSummary(row: LinkSummaryRow, publicUrl: string): LinkSummary {
  return {
    id: row.id,
    url: personalLinkUrl(publicUrl, row.id),
    status: linkState(row),
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    phone: row.phone,
    signInMethod: row.sign_in_method,
    language: row.language,
    isPaymentLinkLocked: row.is_payment_link_locked,
    payorName: row.payor_name,
    payorEmail: row.payor_email,
    procedureDescription: row.procedure_description,
    expiresAt: iso(row.expires_at)!,
    createdAt: iso(row.created_at)!,
    progress: { completed: row.steps_completed, total: row.steps_total, currentRoutePath: row.current_route },
    payment: row.payment ? toStaffPayment(row.payment) : null,
  };
}

export async function findLinkSummary(q: Queryable, id: string): Promise<LinkSummaryRow | null> {
  return (await selectLinkSummaries(q).where('l.id', '=', id).executeTakeFirst()) ?? null;
}
