import { sql, type UpdateObject } from 'kysely';
import type { Queryable } from '../../db/client.js';
import type { DB } from '../../db/schema.js';
import { typed } from '../../db/typed.js';
import type { Row } from '../../db/typed.js';

/**
 * The one owner of a plan's and its instalments' status (issue 41, as link-lifecycle.ts owns a link's): every write of
 * payment_plan.status or plan_installment.status goes through this file, in the caller's transaction, and only along
 * these moves (a row in another status is not changed: the caller gets 0 rows):
 *
 *   plan:        pending ──deposit──▶ active | completed (nothing to charge)     active ──pause──▶ paused ──resume──▶ active
 *                active | paused ──cancel──▶ cancelled                          active ──last instalment paid──▶ completed
 *   instalment:  scheduled ──notice──▶ notified ──sale approved──▶ paid ──refunded in full──▶ refunded
 *                notified ──declined──▶ notified (a retry) | failed (no tries left)    failed ──charge now──▶ notified
 *                scheduled | notified | failed ──cancel──▶ cancelled; ──new date, or resumed past its day──▶ scheduled
 *
 * Lock order (decision 0238): the plan's row, then its instalments. Callers lock the plan first (lockPlanRow, or the
 * staff actions' lockPlan); recordInstallmentRefund takes it itself.
 */
export type PlanStatus = Row<'payment_plan'>['status'];
export type InstallmentStatus = Row<'plan_installment'>['status'];

/** Where each status may be reached from. */
export const PLAN_MOVES: Readonly<Record<PlanStatus, readonly PlanStatus[]>> = {
  pending: [],
  active: ['pending', 'paused'],
  paused: ['active'],
  cancelled: ['active', 'paused'],
  completed: ['pending', 'active'],
};
export const INSTALLMENT_MOVES: Readonly<Record<InstallmentStatus, readonly InstallmentStatus[]>> = {
  scheduled: ['scheduled', 'notified', 'failed'],
  notified: ['scheduled', 'notified', 'failed'],
  paid: ['notified'],
  failed: ['notified'],
  cancelled: ['scheduled', 'notified', 'failed'],
  refunded: ['paid'],
};

export type PlanColumns = Omit<UpdateObject<DB, 'payment_plan'>, 'status' | 'id' | 'updated_at'>;
export type InstallmentColumns = Omit<UpdateObject<DB, 'plan_installment'>, 'status' | 'id' | 'plan_id' | 'updated_at'>;

/**
 * The plan's row lock, taken before any instalment of the plan is locked or written: the one lock order of every plan
 * write, plan then instalment (decision 0238). Staff actions, the scheduler's record and refunds all take it first.
 */
export async function lockPlanRow(tx: Queryable, planId: string): Promise<void> {
  await typed(tx).selectFrom('payment_plan').select('id').where('id', '=', planId).forUpdate().execute();
}

/** The plan moves to `to` (with `set`), from a status PLAN_MOVES allows (narrowed by `from`): true when it did. */
export async function movePlan(
  tx: Queryable,
  planId: string,
  to: PlanStatus,
  o: { set?: PlanColumns; from?: readonly PlanStatus[] } = {},
): Promise<boolean> {
  const from = allowed(PLAN_MOVES[to], o.from);
  if (!from.length) return false;
  const r = await typed(tx)
    .updateTable('payment_plan')
    .set({ ...o.set, status: to, updated_at: sql`now()` })
    .where('id', '=', planId)
    .where('status', 'in', from)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Instalments move to `to` (with `set`), each from a status INSTALLMENT_MOVES allows (narrowed by `from`); with
 * `claimedBy`, only while that scheduler claim holds them. The ids that moved.
 */
export async function moveInstallments(
  tx: Queryable,
  ids: readonly string[],
  to: InstallmentStatus,
  o: { set?: InstallmentColumns; from?: readonly InstallmentStatus[]; claimedBy?: string } = {},
): Promise<string[]> {
  const from = allowed(INSTALLMENT_MOVES[to], o.from);
  if (!ids.length || !from.length) return [];
  let q = typed(tx)
    .updateTable('plan_installment')
    .set({ ...o.set, status: to, updated_at: sql`now()` })
    .where('id', 'in', ids)
    .where('status', 'in', from);
  if (o.claimedBy !== undefined) q = q.where('claimed_by', '=', o.claimedBy);
  const rows = await q.returning('id').execute();
  return rows.map((r) => String(r.id));
}

/**
 * A refund of a paid instalment succeeded: its refunded cents grow, and once all of it is given back it is `refunded`.
 * Takes the plan's lock, then the instalment's (the one lock order). What the instalment shows after.
 */
export async function recordInstallmentRefund(
  tx: Queryable,
  o: { installmentId: string; cents: number },
): Promise<{ amountCents: number; refundedCents: number; status: InstallmentStatus }> {
  const plan = await typed(tx)
    .selectFrom('plan_installment')
    .select('plan_id')
    .where('id', '=', o.installmentId)
    .executeTakeFirstOrThrow();
  await lockPlanRow(tx, String(plan.plan_id));
  const r = await typed(tx)
    .updateTable('plan_installment')
    .set({
      refunded_cents: sql`refunded_cents + ${o.cents}`,
      status: sql`case when status = 'paid' and refunded_cents + ${o.cents} >= amount_cents then 'refunded' else status end`,
      updated_at: sql`now()`,
    })
    .where('id', '=', o.installmentId)
    .returning(['amount_cents', 'refunded_cents', 'status'])
    .executeTakeFirstOrThrow();
  return { amountCents: Number(r.amount_cents), refundedCents: Number(r.refunded_cents), status: r.status };
}

const allowed = <T>(moves: readonly T[], from?: readonly T[]) => (from ? moves.filter((s) => from.includes(s)) : moves);
