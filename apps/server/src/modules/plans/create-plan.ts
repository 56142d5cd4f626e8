import {
  dollarsToCents,
  planProblems,
  planShapeOf,
  planSchedule,
  isoDateInZone,
  type PlanInput,
} from '@paylink/shared';
import type { Queryable } from '../../db/client.js';
import { writeAudit, type Actor } from '../../lib/audit.js';
import { badRequest } from '../../lib/errors.js';
import { emitWebhookEvent } from '../../messages/emit-event.js';
import { insertPlan } from './plans-queries.js';

export interface CreatePlanOptions {
  /** The link-creation transaction: a refused plan creates no link. */
  tx: Queryable;
  actor: Actor;
  linkId: string;
  /** The link's lock: it sets the smallest first payment, hence the smallest total. */
  locked: boolean;
  input: PlanInput;
  /** The practice's time zone: due dates are its calendar days. */
  timeZone: string;
  createdBy: string | null;
  now?: Date;
}

/**
 * Stores a new link's plan: its total and the shape of the balance. The instalments themselves wait for the deposit
 * (materialisePlan), whose amount the patient picks. Every rule is checked again here, whatever the caller checked.
 */
export async function createPlan(opts: CreatePlanOptions): Promise<{ planId: string }> {
  const { input } = opts;
  const today = isoDateInZone(opts.now ?? new Date(), opts.timeZone);
  const problems = planProblems(input, { locked: opts.locked, today });
  if (problems.length) {
    const fields = Object.fromEntries(problems.map((p) => [['plan', ...p.path].join('.'), p.message]));
    throw badRequest(problems[0]!.message, fields);
  }
  const shape = planShapeOf(input);
  const totalCents = dollarsToCents(input.total);
  const planId = await insertPlan(opts.tx, { linkId: opts.linkId, totalCents, shape, createdBy: opts.createdBy });
  await writeAudit(opts.tx, {
    ...opts.actor,
    action: 'plan.created',
    linkId: opts.linkId,
    details: {
      totalCents,
      ...shape,
      // What the patient would owe after the smallest deposit is not known yet: the projection uses the total.
      projectedInstallments: planSchedule(shape, totalCents).length,
    },
  });
  // In the link's transaction: the event exists only if the link does. Money in cents, like installment.paid.
  await emitWebhookEvent(opts.tx, 'plan.created', {
    linkId: opts.linkId,
    totalCents,
    ...shape,
    installments: shape.kind === 'single' ? 1 : shape.count,
  });
  return { planId };
}
