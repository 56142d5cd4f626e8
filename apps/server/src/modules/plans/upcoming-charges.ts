import { addDays, isoDateInZone, type UpcomingChargesResult } from '@paylink/shared';
import type { Queryable } from '../../db/client.js';

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
  const r = await q.query<{
    link_id: string;
    first_name: string;
    last_name: string;
    n: number;
    installment_count: number;
    due_on: string;
    amount_cents: string | number;
    status: UpcomingChargesResult['charges'][0]['status'];
    brand: string | null;
    last4: string | null;
    exp_month: number | null;
    exp_year: number | null;
    last_failure: string | null;
    attempts: number;
    next_attempt_at: Date | string | null;
  }>(
    `select l.id as link_id, l.first_name, l.last_name, i.n, p.installment_count,
            to_char(i.due_on, 'YYYY-MM-DD') as due_on, i.amount_cents, i.status, c.brand, c.last4, c.exp_month,
            c.exp_year, i.last_failure, i.attempts, i.next_attempt_at
       from plan_installment i
       join payment_plan p on p.id = i.plan_id
       join link l on l.id = p.link_id
       left join stored_card c on c.link_id = p.link_id and c.replaced_at is null
      where p.status = 'active' and i.status in ('scheduled', 'notified', 'failed') and i.due_on <= $1::date
        -- A failed installment (no more tries) stays listed until someone charges, moves or cancels it.
        and (i.due_on >= $2::date or i.next_attempt_at is not null or i.status = 'failed')
      order by i.due_on, l.last_name, l.first_name, i.n`,
    [to, from],
  );
  return {
    from,
    to,
    charges: r.rows.map((row) => ({
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
