import { sql } from 'kysely';
import type { Queryable } from '../../db/client.js';
import { typed } from '../../db/typed.js';
import { AppError, notFound } from '../../lib/errors.js';
import { findPlanByLink, type PlanRow } from './plans-queries.js';
import { OUTCOME_UNKNOWN } from './run-plan-scheduler.js';

/** Instalments still to be charged: what pause, cancel and reschedule act on. */
export const OPEN_STATUSES = ['scheduled', 'notified', 'failed'] as const;

export interface LockedInstallment {
  id: string;
  n: number;
  dueOn: string;
  amountCents: number;
  status: 'scheduled' | 'notified' | 'paid' | 'failed' | 'cancelled' | 'refunded';
  attempts: number;
  lastFailure: string | null;
}

/** The link's plan, locked for the action (the scheduler's claims wait for it), or 404. */
export async function lockPlan(tx: Queryable, linkId: string): Promise<PlanRow> {
  const plan = await findPlanByLink(tx, linkId, { forUpdate: true });
  if (!plan) throw notFound('This link has no payment plan.');
  return plan;
}

/** A sentence for a plan that is not in a state the action takes. */
export function notActive(plan: PlanRow, what: string): AppError {
  const why: Record<PlanRow['status'], string> = {
    pending: 'the deposit is not paid yet, so nothing is scheduled (cancel the link instead)',
    active: 'it is active',
    paused: 'it is paused (resume it first)',
    cancelled: 'it was cancelled',
    completed: 'everything in it is paid',
  };
  return new AppError('plan_not_active', `This plan cannot be ${what}: ${why[plan.status]}.`);
}

/**
 * The plan's instalments in `statuses`, locked. A scheduler pass that claimed one of them writes through its claim
 * (claimed_by), so an action that clears the claim stops that pass before it charges; the one thing it cannot stop is
 * a sale already sent, marked outcome_unknown before the call (see refuseWhileCharging).
 */
export async function lockInstallments(
  tx: Queryable,
  planId: string,
  statuses: readonly LockedInstallment['status'][],
  n?: number,
): Promise<LockedInstallment[]> {
  let query = typed(tx)
    .selectFrom('plan_installment')
    .select([
      'id',
      'n',
      sql<string>`to_char(due_on, 'YYYY-MM-DD')`.as('due_on'),
      'amount_cents',
      'status',
      'attempts',
      'last_failure',
    ])
    .where('plan_id', '=', planId)
    .where('status', '=', sql<LockedInstallment['status']>`any(${[...statuses]}::text[])`);
  if (n !== undefined) query = query.where('n', '=', n);
  const rows = await query.orderBy('n').forUpdate().execute();
  return rows.map((x) => ({
    id: String(x.id),
    n: x.n,
    dueOn: x.due_on,
    amountCents: Number(x.amount_cents),
    status: x.status,
    attempts: x.attempts,
    lastFailure: x.last_failure,
  }));
}

/** One instalment by number, locked, whatever its status; 404 when the plan has no such instalment. */
export async function lockInstallment(tx: Queryable, plan: PlanRow, n: number): Promise<LockedInstallment> {
  const [row] = await lockInstallments(
    tx,
    plan.id,
    ['scheduled', 'notified', 'paid', 'failed', 'cancelled', 'refunded'],
    n,
  );
  if (!row) throw notFound(`This plan has no installment ${n}.`);
  return row;
}

/**
 * A sale already sent to the gateway whose answer is not known: too late to stop it. The action is refused (409)
 * rather than showing a cancelled instalment the card may have paid; the next pass reconciles it within minutes.
 */
export function refuseWhileCharging(rows: LockedInstallment[], what: string): void {
  const charging = rows.find((r) => r.lastFailure === OUTCOME_UNKNOWN);
  if (!charging) return;
  throw new AppError(
    'charge_in_progress',
    `Too late to ${what}: installment ${charging.n} was already sent to the card gateway and its answer is not known ` +
      'yet. Paylink asks the gateway on its next pass (within minutes); look at the plan again then.',
  );
}

/** Clears any scheduler claim on these rows: a pass that holds one finds it lost and writes nothing. */
export async function takeOverClaims(tx: Queryable, rows: LockedInstallment[]): Promise<void> {
  if (!rows.length) return;
  await typed(tx)
    .updateTable('plan_installment')
    .set({ claimed_by: null, claim_expires_at: null, updated_at: sql`now()` })
    .where('id', '=', sql<string>`any(${rows.map((r) => r.id)}::bigint[])`)
    .execute();
}
