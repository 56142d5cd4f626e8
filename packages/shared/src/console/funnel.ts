import { z } from 'zod';
import { staffRefSchema } from './staff.js';
import { iso } from './wire.js';

export const funnelQuerySchema = z
  .object({
    from: z.iso.date().optional(),
    to: z.iso.date().optional(),
    coordinatorId: z.union([z.uuid(), z.literal('me')]).optional(),
    /** A link with no patient activity for this long (and not paid, cancelled or finished) is stalled. */
    stalledAfterHours: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 90)
      .optional()
      .default(48),
  })
  .strict();

export const funnelStageKeySchema = z.enum([
  'created',
  'sent',
  'opened',
  'signed_in',
  'patientInfo',
  'invoice',
  'patientId',
  'payorId',
  'contract',
  'payment',
  'paid',
]);
export type FunnelStageKey = z.infer<typeof funnelStageKeySchema>;

export const funnelStageSchema = z.object({
  key: funnelStageKeySchema,
  count: z.number().int(),
  /** count / previous stage's count (0–1); null for the first stage or when the previous count is 0. */
  conversion: z.number().nullable(),
  /** Median seconds from the previous stage to this one over links that reached both; null without data. */
  medianSeconds: z.number().nullable(),
});

const moneyTotal = z.object({ count: z.number().int(), amount: z.number().describe('US dollars') });

/**
 * The money of the payment plans of the funnel's links (issue 28): collected = instalments paid (less what was
 * refunded), scheduled = open instalments of plans not cancelled (scheduled or notified, retries included), failed =
 * instalments failed after their last retry. Stored instalments only: a plan waiting for its deposit has none yet.
 */
export const funnelPlanMoneySchema = z.object({
  plans: z.number().int().describe('Links of the funnel with a payment plan.'),
  collected: moneyTotal,
  scheduled: moneyTotal,
  failed: moneyTotal,
});
export type FunnelPlanMoney = z.infer<typeof funnelPlanMoneySchema>;

export const funnelResultSchema = z.object({
  from: z.string(),
  to: z.string(),
  timeZone: z.string(),
  stages: z.array(funnelStageSchema),
  byCoordinator: z.array(z.object({ coordinator: staffRefSchema.nullable(), stages: z.array(funnelStageSchema) })),
  /** Where patients stop: stalled links grouped by the last stage they reached. */
  stalled: z.array(
    z.object({
      stage: funnelStageKeySchema,
      count: z.number().int(),
      /** Up to 20 of them, longest idle first. */
      links: z.array(
        z.object({ id: z.string(), firstName: z.string(), lastName: z.string(), lastActivityAt: iso.nullable() }),
      ),
    }),
  ),
  planMoney: funnelPlanMoneySchema,
  /**
   * What the practice kept of the window's links (decision 0243): every approved sale (deposits, balance payments,
   * plan instalments) less what was refunded of it; count = sales with something kept. The Payments screen's net for
   * the same sales.
   */
  collected: moneyTotal,
});
export type FunnelResult = z.infer<typeof funnelResultSchema>;
