import { z } from 'zod';
import { LINK_ID_PATTERN, PaymentSource, PaymentType, StepStatus } from './ids.js';
import { nameString, safeString } from './text.js';

/**
 * The HTTP contract of spec section 7. The server validates every route with these; the web app infers its types
 * from them. Ids may arrive as numbers or digit strings (the original client kept them as strings).
 */

/** Link ids: 22+ URL-safe characters (≥ 128 random bits). */
export const linkIdSchema = z.string().regex(LINK_ID_PATTERN, 'linkId must be the id from your personal link');

const intLike = (name: string) =>
  z
    .union([z.number(), z.string().trim().regex(/^\d+$/, `${name} must be a whole number`)])
    .transform((v) => Number(v))
    .pipe(z.number().int(`${name} must be a whole number`).nonnegative().max(2_000_000_000));

/** 1 | 2, as number or string; absent, empty or null means "use the default". */
const optionalId = (name: string, allowed: readonly number[]) =>
  z
    .union([z.number(), z.string(), z.null()])
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === null || v === '') return undefined;
      const n = Number(v);
      if (!allowed.includes(n)) {
        ctx.addIssue({ code: 'custom', message: `${name} must be one of ${allowed.join(', ')}` });
        return z.NEVER;
      }
      return n;
    });

export const paymentTypeIdSchema = optionalId('paymentTypeId', [PaymentType.Deposit, PaymentType.Payment]);
export const paymentSourceIdSchema = optionalId('paymentSourceId', [PaymentSource.Patient, PaymentSource.Payor]);
/** Whole dollars, as the patient typed them. */
export const paymentAmountSchema = intLike('paymentAmount');

/** A link id in a path: checked by the lookup itself, so a malformed id gets the same 401 as an unknown one. */
export const linkPathParamsSchema = z.object({ linkId: z.string().min(1).max(200) }).strict();

/** `c=p`: the phone number (the only channel the lookup answers). */
export const phoneLookupQuerySchema = z.object({ c: z.literal('p', { error: 'c must be p' }).optional() }).strict();

/** Calls that take their input in the query (spec section 7) refuse a body with content. */
export const emptyBodySchema = z
  .union([z.undefined(), z.null(), z.object({}).strict()], { error: 'This call takes no body' })
  .optional();

export const patientInfoSchema = z.object({
  firstName: z.string(),
  lastName: z.string(),
  address: z.string(),
  city: z.string(),
  state: z.string(),
  zipCode: z.string(),
  phone: z.string(),
  email: z.string(),
  paymentSource: z.number().int().nullable(),
  paymentType: z.number().int().nullable(),
  /** Whole dollars; null until the patient has chosen. */
  paymentAmount: z.number().nullable(),
  isPaymentLinkLocked: z.boolean(),
  payorName: z.string().nullable(),
  payorEmail: z.string().nullable(),
});
export type PatientInfo = z.infer<typeof patientInfoSchema>;

export const linkStepSchema = z.object({
  linkStepId: z.number().int(),
  routePath: z.string(),
  documentUrl: z.string().nullable(),
  linkStepStatusId: z.number().int(),
});
export type LinkStep = z.infer<typeof linkStepSchema>;
export const linkStepListSchema = z.array(linkStepSchema);

export const continueCheckSchema = z.object({
  linkStepScript: linkStepListSchema,
  person: patientInfoSchema,
  payment: z.object({
    paymentAmount: z.number(),
    paymentSourceId: z.number().int(),
    paymentTypeId: z.number().int(),
  }),
  paymentAmount: z.number(),
  currentRoutePath: z.string(),
});
export type ContinueCheck = z.infer<typeof continueCheckSchema>;

export const recordPaymentChoiceBodySchema = z
  .object({
    linkId: linkIdSchema,
    paymentTypeId: paymentTypeIdSchema,
    paymentSourceId: paymentSourceIdSchema,
    paymentAmount: paymentAmountSchema,
  })
  .strict();
export type RecordPaymentChoiceBody = z.input<typeof recordPaymentChoiceBodySchema>;

export const paymentChoiceSchema = z.object({
  linkId: z.string(),
  paymentTypeId: z.number().int(),
  paymentSourceId: z.number().int(),
  paymentAmount: z.number(),
});
export type PaymentChoice = z.infer<typeof paymentChoiceSchema>;

export const createStepListQuerySchema = z
  .object({
    linkId: linkIdSchema,
    paymentTypeId: paymentTypeIdSchema,
    paymentSourceId: paymentSourceIdSchema,
    paymentAmount: paymentAmountSchema.optional(),
  })
  .strict();

export const updateStepQuerySchema = z
  .object({
    linkId: linkIdSchema,
    linkStepId: intLike('linkStepId'),
    LinkStepStatusId: z
      .union([z.number(), z.string()])
      .transform((v) => Number(v))
      .pipe(
        z.union([z.literal(StepStatus.InProgress), z.literal(StepStatus.Completed)], {
          error: 'LinkStepStatusId must be 2 or 4',
        }),
      ),
  })
  .strict();

export const updateStepResultSchema = z.object({
  linkStepId: z.number().int(),
  linkStepStatusId: z.number().int(),
  routePath: z.string(),
  /** The next step's routePath, null for the last step. */
  nextRoutePath: z.string().nullable(),
});
export type UpdateStepResult = z.infer<typeof updateStepResultSchema>;

/** GET /api/converge/state: whether a payment of the signed-in link is under way (issue 25, decision 0192). */
export const paymentStateSchema = z.object({ inProgress: z.boolean() });
export type PaymentState = z.infer<typeof paymentStateSchema>;

export const convergeQuerySchema = z
  .object({
    amount: z
      .string()
      .trim()
      .regex(/^\d{1,9}(\.\d{1,2})?$/, 'amount must be a dollar amount like 500 or 500.00'),
  })
  .strict();

export const paymentLogBodySchema = z
  .object({
    linkStepId: intLike('linkStepId'),
    payload: safeString().max(20_000, 'payload is too long'),
  })
  .strict();

export const confirmPaymentBodySchema = z
  .object({
    linkId: linkIdSchema,
    transactionId: safeString().trim().min(1, 'transactionId is required').max(100),
    payorFullName: nameString(200).optional().default(''),
    payorEmail: z
      .union([z.email('payorEmail must be an e-mail address'), z.literal('')])
      .optional()
      .default(''),
    /**
     * When the patient pays: where to e-mail the receipt (the payment page's optional field, prefilled with the
     * e-mail on file). '' = no e-mail: the receipt goes by SMS to the phone on file. Absent = the e-mail on file.
     */
    receiptEmail: z.union([z.email('receiptEmail must be an e-mail address').max(320), z.literal('')]).optional(),
  })
  .strict();

/** How the receipt of an approved payment was sent; `to` is masked. 'none': no e-mail and no phone on file. */
export const ReceiptChannels = ['email', 'sms', 'none'] as const;
export type ReceiptChannel = (typeof ReceiptChannels)[number];
export const paymentReceiptSchema = z.object({
  channel: z.enum(ReceiptChannels),
  to: z.string().nullable(),
});
export type PaymentReceipt = z.infer<typeof paymentReceiptSchema>;

export const confirmPaymentResultSchema = z.object({
  linkId: z.string(),
  transactionId: z.string(),
  approvalCode: z.string(),
  amount: z.number(),
  cardBrand: z.string().nullable(),
  cardLast4: z.string().nullable(),
  paidAt: z.string(),
  /** What the patient was sent (the confirmation page says exactly this). */
  receipt: paymentReceiptSchema,
});
export type ConfirmPaymentResult = z.infer<typeof confirmPaymentResultSchema>;

/**
 * Every 4xx this API sends: a machine code, a sentence for people, per-field messages for forms, and the values a
 * client's own sentence for the code needs (`details`, e.g. `consoleUrl` of `wrong_console_address`).
 */
export const apiErrorSchema = z.object({
  error: z.string(),
  message: z.string(),
  fields: z.record(z.string(), z.string()).optional(),
  details: z.record(z.string(), z.string()).optional(),
  /** A 429's wait (also the Retry-After header): documented so a route's answer schema keeps it. */
  retryAfterSeconds: z.number().int().optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

/** One web-vitals metric, with the path of the page it was measured on. */
export const vitalMetricSchema = z
  .object({
    name: z.enum(['CLS', 'FCP', 'INP', 'LCP', 'TTFB']),
    value: z.number().finite().nonnegative().max(1_000_000),
    rating: z.enum(['good', 'needs-improvement', 'poor']).optional(),
    route: safeString().max(200),
    id: z.string().max(100).optional(),
    navigationType: z.string().max(40).optional(),
  })
  .strict();
/** The most metrics one POST /api/vitals may carry (a page has five; CLS and INP may come again after a hide). */
export const VITALS_PER_REQUEST_MAX = 10;
/**
 * POST /api/vitals: one metric (as clients before issue 30 send it), or a page's metrics in one request (an array, as
 * the patient app sends them when the page is hidden).
 */
export const vitalsBodySchema = z.union([
  vitalMetricSchema,
  z.array(vitalMetricSchema).min(1).max(VITALS_PER_REQUEST_MAX),
]);
