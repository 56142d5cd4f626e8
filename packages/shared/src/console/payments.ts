import { z } from 'zod';
import { staffPaymentSchema } from './staff-payment.js';
import { staffRefSchema } from './staff.js';
import { dollars, iso } from './wire.js';

/** A gateway attempt at paying a link (the console's link page), newest first. */
export const paymentAttemptSchema = z.object({
  id: z.string(),
  at: iso,
  amount: dollars,
  /** unknown: the outcome is being checked with the gateway; duplicate: a second approval flagged for a void (issue 10). */
  status: z.enum(['creating', 'open', 'unknown', 'closed', 'approved', 'duplicate', 'failed']),
  /** Decline or error text reported for the attempt, if any. */
  declineReason: z.string().nullable(),
});

/** GET /api/admin/payments/report and /api/admin/payments/export (CSV, same filters). */
export const paymentReportQuerySchema = z
  .object({
    /** approved = paid; attempted = chosen but not paid (with or without declined attempts). */
    status: z.enum(['approved', 'attempted']).optional(),
    from: z.iso.date().optional(),
    to: z.iso.date().optional(),
    groupBy: z.enum(['day', 'week', 'month']).optional().default('day'),
    coordinatorId: z.union([z.uuid(), z.literal('me')]).optional(),
    q: z.string().trim().max(200).optional(),
    limit: z.coerce.number().int().min(1).max(500).optional().default(50),
    offset: z.coerce.number().int().min(0).optional().default(0),
  })
  .strict();
export type PaymentReportQuery = z.input<typeof paymentReportQuerySchema>;

/**
 * A row of the report: one sale of the staff read model of money movements (decision 0243): a link's deposit or
 * balance payment, or a plan instalment's charge, with its link's patient and coordinator. An instalment declined after
 * its last retry reads `status: chosen` (not approved) and `installment.status: failed`.
 */
export const paymentReportRowSchema = staffPaymentSchema.extend({
  kind: z.enum(['deposit', 'payment', 'installment']),
  /** The plan instalment this charge paid (number, of how many, due date, its status); null for a link's payment. */
  installment: z
    .object({
      n: z.number().int(),
      count: z.number().int(),
      dueOn: z.string(),
      status: z.enum(['paid', 'refunded', 'failed']),
    })
    .nullable(),
  /** Dollars the practice keeps of it: amount less refunded when approved, else 0. */
  net: dollars,
  linkId: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  /** Declined or failed gateway attempts on this payment. */
  failedAttempts: z.number().int(),
  coordinator: staffRefSchema.nullable(),
  chosenAt: iso,
});

export const paymentTotalSchema = z.object({
  /** Start of the period (YYYY-MM-DD, in the practice's time zone; weeks start on Monday). */
  period: z.string(),
  approvedCount: z.number().int(),
  approvedAmount: dollars,
  attemptedCount: z.number().int(),
  attemptedAmount: dollars,
  /** Dollars given back of the approved sales of the period, and what is kept (approved less refunded). */
  refundedAmount: dollars,
  netAmount: dollars,
});

export const paymentReportSchema = z.object({
  rows: z.array(paymentReportRowSchema),
  total: z.number().int(),
  totals: z.array(paymentTotalSchema),
  sum: z.object({
    approvedCount: z.number().int(),
    approvedAmount: dollars,
    refundedAmount: dollars,
    /** What the practice keeps of the period's sales: the CSV's net_usd summed, the funnel's collected. */
    netAmount: dollars,
  }),
  timeZone: z.string(),
});
export type PaymentReport = z.infer<typeof paymentReportSchema>;
