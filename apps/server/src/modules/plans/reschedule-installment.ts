import { addDays, isoDateInZone, PLAN_NOTICE_DAYS, type PlanView } from '@paylink/shared';
import { randomBytes } from 'node:crypto';
import type { Config } from '../../config.js';
import { retryingTransaction, type Db } from '../../db/client.js';
import { writeAudit, type Actor } from '../../lib/audit.js';
import { AppError, badRequest } from '../../lib/errors.js';
import { practiceTimeZone } from '../app-config/index.js';
import {
  lockInstallment,
  lockPlan,
  notActive,
  OPEN_STATUSES,
  refuseWhileCharging,
  takeOverClaims,
} from './plan-action-support.js';
import { showPlan } from './show-plan.js';
import { moveInstallments } from './plan-lifecycle.js';

export interface RescheduleInstallmentOptions {
  db: Db;
  config: Config;
  actor: Actor;
  linkId: string;
  n: number;
  /** YYYY-MM-DD, the practice's calendar day. */
  dueOn: string;
  reason?: string;
  now?: Date;
}

/**
 * Moves one open instalment to a new date (decision 0210). The patient is told again 7 days before the new date, so
 * the date must be at least 7 days away; sooner is refused with the first date allowed (charge now is for the
 * patient who asks to pay today). The instalment starts over: `scheduled`, no tries counted, and a new merchant
 * transaction id when an earlier one was sent and declined.
 */
export async function rescheduleInstallment(opts: RescheduleInstallmentOptions): Promise<{ plan: PlanView }> {
  const today = isoDateInZone(opts.now ?? new Date(), await practiceTimeZone(opts.db, opts.config));
  const earliest = addDays(today, PLAN_NOTICE_DAYS);
  if (opts.dueOn < earliest) {
    const message =
      `dueOn must be on or after ${earliest}: the patient is told ${PLAN_NOTICE_DAYS} days before each charge. ` +
      'To charge sooner at the patient’s request, charge the installment now.';
    throw badRequest(message, { dueOn: message });
  }
  await retryingTransaction(opts.db, async (tx) => {
    const plan = await lockPlan(tx, opts.linkId);
    if (plan.status !== 'active' && plan.status !== 'paused') throw notActive(plan, 'changed');
    const row = await lockInstallment(tx, plan, opts.n);
    if (!(OPEN_STATUSES as readonly string[]).includes(row.status)) {
      throw new AppError(
        'installment_not_open',
        `Installment ${row.n} is ${row.status}: only an open one can be moved.`,
      );
    }
    refuseWhileCharging([row], `move installment ${row.n}`);
    await takeOverClaims(tx, [row]);
    await moveInstallments(tx, [row.id], 'scheduled', {
      set: {
        due_on: opts.dueOn,
        notified_at: null,
        next_attempt_at: null,
        last_failure: null,
        attempts: 0,
        // A tried instalment's next sale is a new one: a new merchant transaction id.
        ...(row.attempts > 0 ? { merchant_txn_id: randomBytes(12).toString('hex') } : {}),
      },
    });
    await writeAudit(tx, {
      ...opts.actor,
      action: 'installment.rescheduled',
      linkId: opts.linkId,
      details: {
        n: row.n,
        from: row.dueOn,
        to: opts.dueOn,
        previousStatus: row.status,
        ...(opts.reason ? { reason: opts.reason } : {}),
      },
    });
  });
  return { plan: (await showPlan({ q: opts.db, linkId: opts.linkId }))! };
}
