import { addDays, isoDateInZone, type UpcomingChargesResult } from '@paylink/shared';
import { sql } from 'kysely';
import type { Queryable } from '../../db/client.js';
import { typed } from '../../db/typed.js';

/** A card is good through the last day of its expiry month; it fails a charge due in any later month. */
export function cardExpiresBefore(exp: { month: number | null; year: number | null }, dueOn: string): boolean {
  if (exp.month === null || exp.year === null) return false;
  const [y, m] = dueOn.split('-').map(Number) as [number, number];
  return exp.year < y || (exp.year === y && exp.month < m);
}

/**
 * The open instalments of active plans due from today through today + days (the practice's calendar), with the
 * instalments still being retried after a decline (their due date is past, their next try is not) and the failed
 * ones (declined on every try: nothing more is tried until staff act).
 */
export async function listUpcomingCharges(
  q: Queryable,
  o: { now: Date; timeZone: string; days: number },
): Promise<UpcomingChargesResult> {
  const from = isoDateInZone(o.now, o.timeZone);
  const to = addDays(from, o.days);
  const rows = await typed(q)
    .selectFrom('plan_installment as i')
    .innerJoin('payment_plan as p', 'p.id', 'i.plan_id')
    .innerJoin('link as l', 'l.id', 'p.link_id')
    .leftJoin('stored_card as c', (j) => j.onRef('c.link_id', '=', 'p.link_id').on('c.replaced_at', 'is', null))
    .select([
      'l.id as link_id',
      'l.first_name',
      'l.last_name',
      'i.n',
      'p.installment_count',
      sql<string>`to_char(i.due_on, 'YYYY-MM-DD')`.as('due_on'),
      'i.amount_cents',
      'i.status',
      'c.brand',
      'c.last4',
      'c.exp_month',
      'c.exp_year',
      'i.last_failure',
      'i.attempts',
      'i.next_attempt_at',
    ])
    .where('p.status', '=', 'active')
    .where('i.status', 'in', ['scheduled', 'notified', 'failed'])
    .where('i.due_on', '<=', sql<Date>`${to}::date`)
    // A failed installment (no more tries) stays listed until someone charges, moves or cancels it.
    .where((eb) =>
      eb.or([
        eb('i.due_on', '>=', sql<Date>`${from}::date`),
        eb('i.next_attempt_at', 'is not', null),
        eb('i.status', '=', 'failed'),
      ]),
    )
    .orderBy('i.due_on')
    .orderBy('l.last_name')
    .orderBy('l.first_name')
    .orderBy('i.n')
    .execute();
  return {
    from,
    to,
    charges: rows.map((row) => ({
      linkId: row.link_id,
      firstName: row.first_name,
      lastName: row.last_name,
      n: row.n,
      count: row.installment_count,
      dueOn: row.due_on,
      amount: Number(row.amount_cents) / 100,
      status: row.status,
      cardBrand: row.brand,
      cardLast4: row.last4,
      cardExpiresBeforeDue: cardExpiresBefore({ month: row.exp_month, year: row.exp_year }, row.due_on),
      lastFailure: row.last_failure,
      attempts: row.attempts,
      nextAttemptAt: row.next_attempt_at ? new Date(row.next_attempt_at).toISOString() : null,
    })),
  };
}
