import { z } from 'zod';
import { linkStateSchema } from '../admin.js';
import { linkIdSchema } from '../api.js';
import { Languages, SignInMethods, StepRoutes } from '../ids.js';
import { planViewSchema } from '../plans.js';
import { paymentAttemptSchema } from './payments.js';
import { staffPaymentSchema } from './staff-payment.js';
import { staffRefSchema } from './staff.js';
import { dollars, iso } from './wire.js';

/** Stable keys of the patient's steps, for labels ("Contract 4/6"). */
export const stepKeySchema = z.enum([
  'patientInfo',
  'invoice',
  'patientId',
  'payorId',
  'contract',
  'payment',
  'confirmation',
]);
export type StepKey = z.infer<typeof stepKeySchema>;
export const stepKeyByRoute: Record<string, StepKey> = Object.fromEntries(
  Object.entries(StepRoutes).map(([k, v]) => [v, k as StepKey]),
);

/** Where a link stands: 'not_started' = no step list yet (amount not chosen); 'done' = every step completed. */
export const stepReachedSchema = z.union([stepKeySchema, z.enum(['not_started', 'done'])]);

// ───────────────────────────── board ─────────────────────────────

const csvList = <T extends z.ZodType<string, string>>(item: T) =>
  z
    .union([z.string(), z.array(z.string())])
    .transform((v) => (Array.isArray(v) ? v : v.split(',')).map((s) => s.trim()).filter(Boolean))
    .pipe(z.array(item));

/** GET /api/admin/board. `status` and `step` take comma-separated lists. Dates are YYYY-MM-DD in the practice's zone. */
export const boardQuerySchema = z
  .object({
    q: z.string().trim().max(200).optional(),
    status: csvList(linkStateSchema).optional(),
    step: csvList(stepReachedSchema).optional(),
    createdFrom: z.iso.date().optional(),
    createdTo: z.iso.date().optional(),
    /** A staff user id, or 'me'. */
    coordinatorId: z.union([z.uuid(), z.literal('me')]).optional(),
    limit: z.coerce.number().int().min(1).max(200).optional().default(50),
    offset: z.coerce.number().int().min(0).max(100_000).optional().default(0),
  })
  .strict();
export type BoardQuery = z.input<typeof boardQuerySchema>;

export const boardRowSchema = z.object({
  id: z.string(),
  url: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  phone: z.string(),
  email: z.string(),
  /** Derived: 'expired' = active and past expiresAt. */
  status: linkStateSchema,
  language: z.enum(Languages),
  signInMethod: z.enum(SignInMethods),
  /** The amount chosen by the patient (null until chosen). */
  amount: dollars.nullable(),
  paymentTypeId: z.number().int().nullable(),
  /** Who pays: chosen on the payment screen (null until chosen). */
  payer: z.enum(['patient', 'payor']).nullable(),
  payorName: z.string().nullable(),
  progress: z.object({
    completed: z.number().int(),
    total: z.number().int(),
    /** The step the patient is on (first not completed), 'not_started' or 'done'. */
    reached: stepReachedSchema,
    /** 1-based position of `reached` in the list (total + 1 when done, 0 when not started). */
    position: z.number().int(),
  }),
  /** The patient's (or payor's) last action on the link. */
  lastActivityAt: iso.nullable(),
  payment: z.object({
    status: z.enum(['none', 'chosen', 'approved']),
    paidAt: iso.nullable(),
    cardBrand: z.string().nullable(),
    cardLast4: z.string().nullable(),
  }),
  coordinator: staffRefSchema.nullable(),
  createdAt: iso,
  expiresAt: iso,
});
export type BoardRow = z.infer<typeof boardRowSchema>;

export const boardResultSchema = z.object({
  rows: z.array(boardRowSchema),
  total: z.number().int(),
  /** Pass to GET /api/admin/board/changes?since= to learn which links changed after this answer. */
  cursor: z.string(),
});
export type BoardResult = z.infer<typeof boardResultSchema>;

/** GET /api/admin/board/changes?since=<cursor>: cheap (no patient data, not audited); poll every ≤ 10 s. */
export const boardChangesQuerySchema = z.object({ since: z.string().min(1).max(100) }).strict();
export const boardChangesResultSchema = z.object({
  /** Links with patient or staff activity since the cursor (empty: nothing to refetch). */
  linkIds: z.array(z.string()),
  cursor: z.string(),
});

export const timelineEntrySchema = z.object({
  id: z.string(),
  at: iso,
  /** The raw audit action, e.g. step.completed. */
  action: z.string(),
  /** Display group: for icons and filtering. */
  category: z.enum([
    'link',
    'message',
    'sign_in',
    'step',
    'document',
    'payment',
    'staff_action',
    'staff_read',
    'other',
  ]),
  actor: z.object({
    type: z.enum(['patient', 'staff', 'system']),
    /** Staff member's name (or e-mail); 'Patient' / 'System' otherwise. */
    name: z.string(),
  }),
  /** Plain-language sentence in both languages, e.g. "Completed the Contract step" / "Completó el paso Contrato". */
  text: z.object({ en: z.string(), es: z.string() }),
  /** Reason given by staff (cancel, expire, extend), decline reason of a payment, … */
  note: z.string().nullable(),
  /**
   * What the note is, so the console can put it in the reader's language (issue 29, item 11): text (staff's words,
   * shown as written), gateway (the card gateway's answer, e.g. DECLINED), failure (the payment page's failure kind:
   * declined, error, threeDSFailed, unavailable), signIn (why a sign-in failed: wrong-code, expired, …),
   * deliveryError (the SMS or e-mail provider's error code), transaction (a gateway transaction id).
   */
  noteKind: z.enum(['text', 'gateway', 'failure', 'signIn', 'deliveryError', 'transaction']),
});
export type TimelineEntry = z.infer<typeof timelineEntrySchema>;

export const consoleStepSchema = z.object({
  position: z.number().int(),
  key: stepKeySchema,
  routePath: z.string(),
  status: z.enum(['not_started', 'in_progress', 'completed']),
  startedAt: iso.nullable(),
  completedAt: iso.nullable(),
});

/** GET /api/admin/links/:id/detail — one read, audited as admin.link_viewed. Documents: GET /api/admin/links/:id/documents. */
export const consoleLinkDetailSchema = z.object({
  id: z.string(),
  url: z.string(),
  status: linkStateSchema,
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.string(),
  address: z.string(),
  city: z.string(),
  /** US state of the address. */
  state: z.string(),
  zipCode: z.string(),
  language: z.enum(Languages),
  signInMethod: z.enum(SignInMethods),
  isPaymentLinkLocked: z.boolean(),
  payorName: z.string().nullable(),
  payorEmail: z.string().nullable(),
  procedureDescription: z.string(),
  coordinator: staffRefSchema.nullable(),
  createdAt: iso,
  expiresAt: iso,
  cancelledAt: iso.nullable(),
  completedAt: iso.nullable(),
  lastActivityAt: iso.nullable(),
  steps: z.array(consoleStepSchema),
  payment: staffPaymentSchema.nullable(),
  attempts: z.array(paymentAttemptSchema),
  /** The link's payment plan (issue 28), or null. */
  plan: planViewSchema.nullable(),
  /**
   * What happened to each instalment, oldest first, from the audit rows (`installment.*`): notices, charge attempts,
   * declines with the gateway's words and the next try, payments with the transaction id, and the practice's actions.
   */
  planHistory: z.array(
    z.object({
      n: z.number().int().describe('The installment number.'),
      at: iso,
      action: z
        .string()
        .describe('The audit action, e.g. installment.notified, installment.declined, installment.paid.'),
      amount: z.number().nullable().describe('US dollars, when the event names one.'),
      dueOn: z.string().nullable().describe('YYYY-MM-DD, for a notice (the date told) or a reschedule.'),
      reason: z.string().nullable().describe("A decline's or an unknown outcome's words."),
      attempts: z.number().int().nullable(),
      nextAttemptAt: iso.nullable(),
      transactionId: z.string().nullable().describe("The gateway's transaction id of a paid charge."),
      by: z.string().nullable().describe('The staff member, for a practice action; null for the scheduler.'),
    }),
  ),
  /** Newest first. */
  timeline: z.array(timelineEntrySchema),
});
export type ConsoleLinkDetail = z.infer<typeof consoleLinkDetailSchema>;

/** Body of POST /api/admin/links/:id/cancel and /expire (reason optional for the CLI; the console always sends one). */
export const linkActionBodySchema = z
  .object({ reason: z.string().trim().min(1, 'reason must not be empty').max(500).optional() })
  .strict()
  .nullish();
/** Body of POST /api/admin/links/:id/extend. */
export const extendLinkWithReasonBodySchema = z
  .object({
    days: z.number().int('days must be a whole number').min(1, 'days must be at least 1').max(365),
    reason: z.string().trim().min(1, 'reason must not be empty').max(500).optional(),
  })
  .strict();

export const consoleLinkParamsSchema = z.object({ id: linkIdSchema }).strict();
