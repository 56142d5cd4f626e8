import type { Queryable } from '../../db/client.js';

/**
 * The plan's row lock, taken before any instalment of the plan is locked or written: the one lock order of every plan
 * write, plan then instalment (decision 0238). Staff actions, the scheduler's record and refunds all take it first.
 */
export async function lockPlanRow(tx: Queryable, planId: string): Promise<void> {
  await tx.query(`select 1 from payment_plan where id = $1 for update`, [planId]);
}
