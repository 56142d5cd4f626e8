import { isoDateInZone, type PlanView } from '@paylink/shared';
import type { Config } from '../../config.js';
import { retryingTransaction, type Db } from '../../db/client.js';
import { writeAudit, type Actor } from '../../lib/audit.js';
import { emitWebhookEvent } from '../../messages/emit-event.js';
import { practiceTimeZone } from '../app-config/index.js';
import {
  lockInstallments,
  lockPlan,
  notActive,
  OPEN_STATUSES,
  refuseWhileCharging,
  takeOverClaims,
} from './plan-action-support.js';
import { factsFor, loadLink, tellPatient } from './run-plan-scheduler.js';
import { showPlan } from './show-plan.js';
import { sql } from 'kysely';
import { moveInstallments, movePlan } from './plan-lifecycle.js';

export interface CancelPlanOptions {
  db: Db;
  config: Config;
  actor: Actor;
  linkId: string;
  reason?: string;
  now?: Date;
}

/**
 * Cancels the rest of a plan (decision 0210): every open instalment becomes `cancelled` and the plan `cancelled`, and
 * the patient's confirmation is queued in the same transaction (SMS, else e-mail, in the link's language; sent at once,
 * the networks ask for it within 3 days). Against a racing charge: the instalments are locked, a pass that claimed one
 * but has not sent the sale loses its claim and charges nothing; a sale already sent refuses the cancel (409) until
 * the gateway's answer is known — never charged and shown cancelled.
 */
export async function cancelPlan(opts: CancelPlanOptions): Promise<{ plan: PlanView; messageId: string | null }> {
  const now = opts.now ?? new Date();
  const today = isoDateInZone(now, await practiceTimeZone(opts.db, opts.config));
  const messageId = await retryingTransaction(opts.db, async (tx) => {
    const plan = await lockPlan(tx, opts.linkId);
    if (plan.status !== 'active' && plan.status !== 'paused') throw notActive(plan, 'cancelled');
    const open = await lockInstallments(tx, plan.id, OPEN_STATUSES);
    refuseWhileCharging(open, 'cancel the plan');
    await takeOverClaims(tx, open);
    await moveInstallments(
      tx,
      open.map((i) => i.id),
      'cancelled',
      { set: { next_attempt_at: null } },
    );
    await movePlan(tx, plan.id, 'cancelled', { set: { cancelled_at: sql`now()`, paused_at: null } });
    const cancelledCents = open.reduce((sum, i) => sum + i.amountCents, 0);
    const link = await loadLink(tx, opts.linkId);
    const count = plan.shape.kind === 'single' ? 1 : plan.shape.count;
    const facts = await factsFor(
      tx,
      opts,
      { linkId: opts.linkId, n: open.length, count, amountCents: cancelledCents },
      link,
      today,
    );
    const messageId = await tellPatient(tx, opts, link, 'plan-cancelled', facts);
    await writeAudit(tx, {
      ...opts.actor,
      action: 'plan.cancelled',
      linkId: opts.linkId,
      details: {
        cancelled: open.map((i) => i.n),
        cancelledCents,
        messageId,
        ...(opts.reason ? { reason: opts.reason } : {}),
      },
    });
    await emitWebhookEvent(tx, 'plan.cancelled', {
      linkId: opts.linkId,
      cancelled: open.map((i) => ({ n: i.n, amountCents: i.amountCents, dueOn: i.dueOn })),
      cancelledCents,
    });
    return messageId;
  });
  return { plan: (await showPlan({ q: opts.db, linkId: opts.linkId }))!, messageId };
}
