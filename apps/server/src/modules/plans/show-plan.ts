import { planSchedule, type PlanView } from '@paylink/shared';
import type { Queryable } from '../../db/client.js';
import { findCurrentCard } from './card-queries.js';
import { findPlanByLink, listInstallments } from './plans-queries.js';
import { OUTCOME_UNKNOWN, UNKNOWN_HOLD } from './run-plan-scheduler.js';

/** Statuses in which an instalment may still be charged (a lost answer is marked on one of these). */
const OPEN = new Set(['scheduled', 'notified']);

const dollars = (cents: number) => cents / 100;

/**
 * A link's plan for the staff views, or null. Before the deposit the instalments are a projection for balance = total
 * (`projected: true`, every one `scheduled`); after it, the stored instalments with their own statuses.
 */
export async function showPlan(opts: { q: Queryable; linkId: string }): Promise<PlanView | null> {
  const plan = await findPlanByLink(opts.q, opts.linkId);
  if (!plan) return null;
  const projected = plan.balanceCents === null;
  const balanceCents = plan.balanceCents ?? plan.totalCents;
  const installments = projected
    ? planSchedule(plan.shape, balanceCents).map((i) => ({ ...i, status: 'scheduled' as const, refundedCents: 0 }))
    : (await listInstallments(opts.q, plan.id)).map((i) => {
        // The same test that refuses Charge now, cancel, pause and move (decision 0237): the console shows it instead
        // of a button that would answer 409.
        const charging = i.lastFailure === OUTCOME_UNKNOWN && OPEN.has(i.status);
        const held = charging && i.claimedBy === UNKNOWN_HOLD && i.claimExpiresAt ? i.claimExpiresAt : null;
        return { ...i, charging, held };
      });
  const card = await findCurrentCard(opts.q, opts.linkId);
  return {
    kind: plan.shape.kind,
    status: plan.status,
    every: plan.shape.kind === 'installments' ? plan.shape.every : null,
    total: dollars(plan.totalCents),
    balance: dollars(balanceCents),
    deposit: plan.depositCents === null ? null : dollars(plan.depositCents),
    projected,
    installments: installments.map((i) => ({
      n: i.n,
      dueOn: i.dueOn,
      amount: dollars(i.amountCents),
      status: i.status,
      ...(i.refundedCents ? { refunded: dollars(i.refundedCents) } : {}),
      ...('charging' in i && i.charging ? { chargeInProgress: true as const } : {}),
      ...('held' in i && i.held ? { heldUntil: i.held } : {}),
    })),
    card: card && { brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear },
    createdAt: plan.createdAt,
  };
}
