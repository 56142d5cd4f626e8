import { planSchedule } from '@paylink/shared';
import type { Queryable } from '../../db/client.js';
import { writeAudit, type Actor } from '../../lib/audit.js';
import { findPlanByLink, storeInstallments } from './plans-queries.js';

export interface MaterialisePlanOptions {
  /** The transaction that records the deposit's approval: both commit or neither does. */
  tx: Queryable;
  actor: Actor;
  linkId: string;
  /** The approved deposit, in cents. */
  paidCents: number;
}

export type MaterialiseOutcome = 'no_plan' | 'already' | 'active' | 'completed';

/**
 * When the deposit is approved: balance = total − paid, split into the plan's instalments (status scheduled), and the
 * plan becomes active. A deposit that paid it all completes the plan with nothing to charge. Runs once per plan (the
 * plan row is locked; a second call changes nothing), so a reconciled approval and a confirmed one cannot both store.
 */
export async function materialisePlan(opts: MaterialisePlanOptions): Promise<MaterialiseOutcome> {
  const plan = await findPlanByLink(opts.tx, opts.linkId, { forUpdate: true });
  if (!plan) return 'no_plan';
  if (plan.status !== 'pending') return 'already';
  const depositCents = Math.min(opts.paidCents, plan.totalCents);
  const balanceCents = plan.totalCents - depositCents;
  const installments = planSchedule(plan.shape, balanceCents);
  await storeInstallments(opts.tx, { planId: plan.id, depositCents, balanceCents, installments });
  await writeAudit(opts.tx, {
    ...opts.actor,
    action: 'plan.activated',
    linkId: opts.linkId,
    details: { paidCents: opts.paidCents, balanceCents, installments: installments.length },
  });
  return installments.length ? 'active' : 'completed';
}
