import { z } from 'zod';

/**
 * Money operations of the admin API (issue 15): refunds and voids. Dollars on the wire (numbers with up to two
 * decimals, like the rest of the admin API), integer cents in the database.
 */

/** A positive dollar amount with at most two decimals. */
export const dollarAmountSchema = z
  .number({ error: 'amount must be a number of dollars' })
  .positive('amount must be more than 0')
  // A positive amount below one cent (1e-9) would round to 0 cents and reach the database's check (issue 26).
  .min(0.01, 'amount must be at least 0.01')
  .max(1_000_000, 'amount is too large')
  .refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, 'amount must have at most two decimals');

export const refundBodySchema = z
  .object({
    /** Dollars; absent = everything not yet refunded. */
    amount: dollarAmountSchema.optional(),
    reason: z
      .string({ error: 'reason is required' })
      .trim()
      .min(1, 'reason is required')
      .max(500, 'reason must be at most 500 characters'),
  })
  .strict();
export type RefundBody = z.infer<typeof refundBodySchema>;

export const refundKindSchema = z.enum(['void', 'return']);
export const refundStatusSchema = z.enum(['pending', 'succeeded', 'failed']);
/** The payment as the billing office sees it after refunds. */
export const paymentRefundStateSchema = z.enum(['none', 'partially_refunded', 'refunded']);

export const refundSchema = z.object({
  id: z.string(),
  linkId: z.string(),
  kind: refundKindSchema,
  /** Dollars. */
  amount: z.number(),
  status: refundStatusSchema,
  reason: z.string(),
  originalTransactionId: z.string(),
  /** The void's or return's own id at the gateway. */
  transactionId: z.string().nullable(),
  failureMessage: z.string().nullable(),
  requestedBy: z.string().nullable(),
  /** Set when this reversed a second approval flagged by reconciliation (not the link's recorded payment). */
  flaggedAttemptId: z.string().nullable(),
  /** The plan instalment it gives back (its number, of how many); null for the link's payment. */
  installment: z.object({ n: z.number().int(), count: z.number().int() }).nullable(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
});
export type Refund = z.infer<typeof refundSchema>;

export const refundResultSchema = refundSchema.extend({
  payment: z.object({
    /** Dollars. */
    amount: z.number(),
    refunded: z.number(),
    remaining: z.number(),
    refundState: paymentRefundStateSchema,
  }),
});
export type RefundResult = z.infer<typeof refundResultSchema>;

/** Void (or return, once settled) a second approval flagged by reconciliation: always the whole extra charge. */
export const voidFlaggedApprovalBodySchema = refundBodySchema.pick({ reason: true }).strict();
export const flaggedApprovalParamsSchema = z.object({
  attemptId: z.string().regex(/^[A-Za-z0-9]{16,40}$/, 'no such flagged approval'),
});
export const voidFlaggedApprovalResultSchema = refundSchema.extend({ attemptId: z.string() });
export type VoidFlaggedApprovalResult = z.infer<typeof voidFlaggedApprovalResultSchema>;

/** GET /api/admin/payments/attention: flagged second approvals not yet voided. */
export const flaggedApprovalSchema = z.object({
  attemptId: z.string(),
  linkId: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  transactionId: z.string().nullable(),
  /** Dollars. */
  amount: z.number(),
  /** second_approval or amount_mismatch. */
  reason: z.string(),
  cardBrand: z.string().nullable(),
  cardLast4: z.string().nullable(),
  flaggedAt: z.string(),
  /** A void was sent and its answer was lost: check the gateway before trying again. */
  voidPending: z.boolean(),
});
export type FlaggedApproval = z.infer<typeof flaggedApprovalSchema>;
export const listFlaggedApprovalsResultSchema = z.object({ flags: z.array(flaggedApprovalSchema) });

/**
 * A link's refunds and voids, and its money over every sale (the deposit or payment and each plan instalment): dollars
 * charged and approved, given back, and kept. The money card's figures (decision 0243).
 */
export const listRefundsResultSchema = z.object({
  refunds: z.array(refundSchema),
  money: z.object({ paid: z.number(), refunded: z.number(), net: z.number() }),
});
export type LinkRefunds = z.infer<typeof listRefundsResultSchema>;

/** POST /api/admin/links/:id/receipt (issue 29, item 4): where the receipt went again; `to` is masked. */
export const resendReceiptResultSchema = z.object({
  channel: z.enum(['email', 'sms']),
  to: z.string(),
});
export type ResendReceiptResult = z.infer<typeof resendReceiptResultSchema>;

/**
 * GET /api/admin/links/:id/refund-options (issue 29, item 4): what the gateway allows today, for the refund dialog's
 * Review step. `voidOnly`: the sale has not settled, so only a void of the whole payment is possible now.
 */
export const refundOptionsSchema = z.object({
  settled: z.boolean(),
  voidOnly: z.boolean(),
});
export type RefundOptions = z.infer<typeof refundOptionsSchema>;

export function paymentRefundState(
  amountCents: number,
  refundedCents: number,
): z.infer<typeof paymentRefundStateSchema> {
  if (refundedCents <= 0) return 'none';
  return refundedCents >= amountCents ? 'refunded' : 'partially_refunded';
}

/** Outbound webhooks (admin). */
export const webhookEventTypes = [
  'link.created',
  'link.sent',
  'link.opened',
  'step.completed',
  'payment.approved',
  'payment.refunded',
  'payment.needs_attention',
  'link.cancelled',
  'link.expired',
  'installment.paid',
  'installment.failed',
  'plan.created',
  'installment.notified',
  'plan.cancelled',
] as const;
export const webhookEventTypeSchema = z.enum(webhookEventTypes);
export type WebhookEventType = (typeof webhookEventTypes)[number];

export const createWebhookBodySchema = z
  .object({
    url: z.url('url must be an http(s) URL').max(2000),
    events: z.array(webhookEventTypeSchema).min(1, 'choose at least one event').max(webhookEventTypes.length),
    description: z.string().trim().max(200).optional().default(''),
  })
  .strict();

export const webhookEndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  description: z.string(),
  createdAt: z.string(),
  secretRotatedAt: z.string().nullable(),
});
/** Only creation and rotation answer the secret, once. */
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;
export const webhookEndpointWithSecretSchema = webhookEndpointSchema.extend({ secret: z.string() });
export const listWebhooksResultSchema = z.object({ webhooks: z.array(webhookEndpointSchema) });

export const webhookDeliverySchema = z.object({
  id: z.string(),
  eventId: z.string(),
  eventType: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.array(
    z.object({
      at: z.string(),
      statusCode: z.number().int().nullable(),
      error: z.string().nullable(),
      durationMs: z.number().int(),
    }),
  ),
  nextAttemptAt: z.string().nullable(),
  createdAt: z.string(),
  deliveredAt: z.string().nullable(),
  replayOf: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;
export const listWebhookDeliveriesResultSchema = z.object({ deliveries: z.array(webhookDeliverySchema) });
