import { z } from 'zod';

/** POST /api/admin/plans/run (sandbox mode only): one pass of the plan scheduler at a chosen time. */
export const runPlansBodySchema = z
  .object({
    now: z.iso.datetime({ offset: true, message: 'now must be an ISO time like 2026-12-01T15:00:00Z' }),
  })
  .strict();
export type RunPlansBody = z.infer<typeof runPlansBodySchema>;

export const runPlansResultSchema = z.object({
  now: z.string(),
  notified: z.number().int(),
  deferred: z.number().int().describe('Notices held back by quiet hours.'),
  paid: z.number().int(),
  declined: z.number().int().describe('Declined with a retry scheduled.'),
  failed: z.number().int().describe('Declined after the last retry.'),
  unknown: z.number().int().describe('Outcome unknown: reconciled on the next pass.'),
  completedPlans: z.number().int(),
  /** Patients asked for another card because theirs expires before an open instalment (decision 0211). */
  cardsExpiring: z.number().int(),
});
export type RunPlansResult = z.infer<typeof runPlansResultSchema>;
