import type { PlanView } from '@paylink/shared';
import { retryingTransaction, type Db } from '../../db/client.js';
import { writeAudit, type Actor } from '../../lib/audit.js';
import { lockInstallments, lockPlan, notActive, refuseWhileCharging, takeOverClaims } from './plan-action-support.js';
import { showPlan } from './show-plan.js';
import { sql } from 'kysely';
import { movePlan } from './plan-lifecycle.js';

export interface PausePlanOptions {
  db: Db;
  actor: Actor;
  linkId: string;
  reason?: string;
}

/**
 * Pauses an active plan (decision 0210): the scheduler neither notifies nor charges a paused plan's instalments. A
 * notice or charge a pass has claimed but not sent loses its claim and stops; a sale already sent refuses the pause.
 */
export async function pausePlan(opts: PausePlanOptions): Promise<{ plan: PlanView }> {
  await retryingTransaction(opts.db, async (tx) => {
    const plan = await lockPlan(tx, opts.linkId);
    if (plan.status !== 'active') throw notActive(plan, 'paused');
    const open = await lockInstallments(tx, plan.id, ['scheduled', 'notified']);
    refuseWhileCharging(open, 'pause the plan');
    await takeOverClaims(tx, open);
    await movePlan(tx, plan.id, 'paused', { set: { paused_at: sql`now()` } });
    await writeAudit(tx, {
      ...opts.actor,
      action: 'plan.paused',
      linkId: opts.linkId,
      details: { open: open.map((i) => i.n), ...(opts.reason ? { reason: opts.reason } : {}) },
    });
  });
  return { plan: (await showPlan({ q: opts.db, linkId: opts.linkId }))! };
}
