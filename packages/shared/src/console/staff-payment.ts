import { z } from 'zod';
import { paymentRefundStateSchema } from '../money.js';
import { dollars, iso } from './wire.js';

/**
 * A link's payment as staff read it (issue 27): the one model behind the console's link page and payments report,
 * and the staff API's link and payment lists the CLI prints. Kept free of other console schemas so admin.ts can use
 * it without an import cycle.
 */
export const staffPaymentSchema = z.object({
  /** chosen = the patient picked the amount; approved = paid. */
  status: z.enum(['chosen', 'approved']),
  amount: dollars,
  paymentTypeId: z.number().int(),
  /** 1 = the patient pays, 2 = a payor; `payer` says the same in words. */
  paymentSourceId: z.number().int(),
  payer: z.enum(['patient', 'payor']),
  payorFullName: z.string().nullable(),
  payorEmail: z.string().nullable(),
  cardBrand: z.string().nullable(),
  cardLast4: z.string().nullable(),
  transactionId: z.string().nullable(),
  approvalCode: z.string().nullable(),
  paidAt: iso.nullable(),
  /** Dollars given back so far (refunds and voids, issue 15). */
  refunded: dollars,
  refundState: paymentRefundStateSchema,
});
export type StaffPayment = z.infer<typeof staffPaymentSchema>;
