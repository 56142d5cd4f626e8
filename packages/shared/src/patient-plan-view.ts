import { z } from 'zod';
import { patientPlanSchema } from './plan-agreement.js';

/**
 * GET /api/plans/:linkId as the patient's pages read it (issue 41, decision 0247): the plan of plan-agreement.ts plus
 * what a patient needs after a decline (which payment was declined, when, when it is tried next) and whether the card
 * on file expires before a charge still to come. Dates are calendar days (YYYY-MM-DD) in the practice's time zone.
 */
export const patientPlanInstallmentViewSchema = patientPlanSchema.shape.installments.element.extend({
  /** The day of the last decline of this instalment's charge; null when it was never declined. */
  lastDeclinedOn: z.string().nullable().optional(),
  /** The day of the next automatic try after a decline; null when none is scheduled (not declined, or no more). */
  nextTryOn: z.string().nullable().optional(),
});

export const patientPlanViewSchema = patientPlanSchema.extend({
  installments: z.array(patientPlanInstallmentViewSchema),
  /** The due day of the first charge still to come that the card on file will have expired by; null when none. */
  cardExpiresBefore: z.string().nullable().optional(),
});
export type PatientPlanView = z.infer<typeof patientPlanViewSchema>;
