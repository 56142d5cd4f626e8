import { z } from 'zod';
import { linkIdSchema } from './api.js';
import { PLAN_MAX_INSTALLMENTS, isIsoDate, planViewSchema } from './plans.js';

/**
 * The practice's actions on a payment plan (issue 28; decision 0210): pause, resume, cancel the rest, and for one
 * instalment reschedule, charge now and refund. Each answers the plan as staff see it afterwards.
 */

/** `/api/admin/links/:id/plan/installments/:n/…`: the link and the instalment's number (1 for a single charge). */
export const planInstallmentParamsSchema = z
  .object({
    id: linkIdSchema,
    n: z.coerce
      .number({ error: 'n must be an installment number' })
      .int('n must be an installment number')
      .min(1, 'n must be an installment number')
      .max(PLAN_MAX_INSTALLMENTS, `n must be at most ${PLAN_MAX_INSTALLMENTS}`),
  })
  .strict();
export type PlanInstallmentParams = z.infer<typeof planInstallmentParamsSchema>;

/** Pause, resume: an optional note for the audit trail. */
export const planActionBodySchema = z
  .object({
    reason: z.string().trim().max(500, 'reason must be at most 500 characters').optional(),
  })
  .strict()
  .optional();
export type PlanActionBody = z.infer<typeof planActionBodySchema>;

export const rescheduleInstallmentBodySchema = z
  .object({
    dueOn: z
      .string({ error: 'dueOn must be a date like 2027-01-15' })
      .refine(isIsoDate, 'dueOn must be a date like 2027-01-15')
      .describe(
        'The new due date, YYYY-MM-DD in the practice time zone; at least 7 days away (the notice period): the ' +
          'patient is told again 7 days before it.',
      ),
    reason: z.string().trim().max(500, 'reason must be at most 500 characters').optional(),
  })
  .strict();
export type RescheduleInstallmentBody = z.infer<typeof rescheduleInstallmentBodySchema>;

export const planActionResultSchema = z.object({ plan: planViewSchema });
export type PlanActionResult = z.infer<typeof planActionResultSchema>;

export const chargeOutcomeSchema = z
  .enum(['paid', 'declined', 'failed', 'unknown'])
  .describe(
    'paid: approved. declined: a retry is scheduled (1, 3, 7 days). failed: declined and no retry is left. ' +
      'unknown: the gateway did not answer; the scheduler asks it before any other try.',
  );
export type ChargeOutcome = z.infer<typeof chargeOutcomeSchema>;

export const chargeInstallmentResultSchema = z.object({
  outcome: chargeOutcomeSchema,
  plan: planViewSchema,
});
export type ChargeInstallmentResult = z.infer<typeof chargeInstallmentResultSchema>;
