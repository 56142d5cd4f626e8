import { sql } from 'kysely';
import { isoDateInZone, type PlanView } from '@paylink/shared';
import type { Config } from '../../config.js';
import { retryingTransaction, type Db } from '../../db/client.js';
import { typed } from '../../db/typed.js';
import { writeAudit, type Actor } from '../../lib/audit.js';
import { practiceTimeZone } from '../app-config/index.js';
import { lockPlan, notActive } from './plan-action-support.js';
import { showPlan } from './show-plan.js';
import { moveInstallments, movePlan } from './plan-lifecycle.js';

export interface ResumePlanOptions {
  db: Db;
  config: Config;
  actor: Actor;
  linkId: string;
  reason?: string;
  now?: Date;
}

/**
 * Resumes a paused plan (decision 0210). A notified instalment whose charge day (its due date, or its retry time)
 * passed while the plan was paused goes back to `scheduled`: the scheduler sends it a new notice and, as for any late
 * notice, moves its due date to 7 days after it. One still ahead keeps its notice and its date.
 */
export async function resumePlan(opts: ResumePlanOptions): Promise<{ plan: PlanView }> {
  const now = opts.now ?? new Date();
  const today = isoDateInZone(now, await practiceTimeZone(opts.db, opts.config));
  await retryingTransaction(opts.db, async (tx) => {
    const plan = await lockPlan(tx, opts.linkId);
    if (plan.status !== 'paused') throw notActive(plan, 'resumed (only a paused plan is)');
    const renotice = await typed(tx)
      .selectFrom('plan_installment')
      .select(['id', 'n'])
      .where('plan_id', '=', plan.id)
      .where('status', '=', 'notified')
      .where((eb) =>
        eb.or([
          eb('due_on', '<', sql<Date>`${today}::date`),
          eb.and([
            eb('next_attempt_at', 'is not', null),
            eb('next_attempt_at', '<', sql<Date>`${now.toISOString()}::timestamptz`),
          ]),
        ]),
      )
      .forUpdate()
      .execute();
    await moveInstallments(
      tx,
      renotice.map((r) => String(r.id)),
      'scheduled',
      { from: ['notified'], set: { notified_at: null, next_attempt_at: null } },
    );
    await movePlan(tx, plan.id, 'active', { from: ['paused'], set: { paused_at: null } });
    await writeAudit(tx, {
      ...opts.actor,
      action: 'plan.resumed',
      linkId: opts.linkId,
      details: {
        renotice: renotice.map((r) => r.n).sort((a, b) => a - b),
        ...(opts.reason ? { reason: opts.reason } : {}),
      },
    });
  });
  return { plan: (await showPlan({ q: opts.db, linkId: opts.linkId }))! };
}
