import { z } from 'zod';
import { linkIdSchema } from './api.js';
import {
  currentPasswordSchema,
  linkStateSchema,
  loginBodySchema,
  newPasswordSchema,
  staffRoleSchema,
} from './admin.js';
import { Languages, SignInMethods, StepRoutes } from './ids.js';

/**
 * The practice console's contract with the server (everything under /api/admin that the console calls). Amounts are
 * US dollars on the wire; times are ISO 8601 strings (UTC). Every route also accepts a staff bearer token (CLI); the
 * console uses the httpOnly session cookie set by POST /api/admin/session. Cookie-authenticated requests other than
 * GET/HEAD must carry the header `x-paylink-console: 1` (CSRF defence together with SameSite=Strict).
 */

/** Header a cookie-authenticated mutation must carry. */
export const CONSOLE_CSRF_HEADER = 'x-paylink-console';
/** Send `x-paylink-background: 1` on polling requests: they do not count as activity for the idle time-out. */
export const CONSOLE_BACKGROUND_HEADER = 'x-paylink-background';
/** Every cookie-authenticated answer carries the session's current idle expiry in this header (ISO time). */
export const SESSION_EXPIRES_HEADER = 'x-session-expires-at';
export const CONSOLE_IDLE_TIMEOUT_MINUTES = 30;

const iso = z.string();
const dollars = z.number();

// ───────────────────────────── sign-in, session, two-factor ─────────────────────────────

export const consoleUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: staffRoleSchema,
  twoFactorEnabled: z.boolean(),
});
export type ConsoleUser = z.infer<typeof consoleUserSchema>;

/** POST /api/admin/session. `code` is a 6-digit authenticator code or a recovery code (xxxxx-xxxxx). */
export const signInBodySchema = loginBodySchema;
export type SignInBody = z.infer<typeof signInBodySchema>;

/**
 * The session as the console sees it. `twoFactor.enrolmentRequired` = signed in, but every route except the session
 * and /api/admin/me/2fa/* answers 403 `two_factor_enrolment_required` until enrolment is finished (production mode).
 */
export const consoleSessionSchema = z.object({
  user: consoleUserSchema,
  /** Idle expiry: every request without the background header moves it to now + idleTimeoutMinutes. */
  expiresAt: iso,
  idleTimeoutMinutes: z.number().int(),
  twoFactor: z.object({ enabled: z.boolean(), required: z.boolean(), enrolmentRequired: z.boolean() }),
  mode: z.enum(['sandbox', 'production']),
});
export type ConsoleSession = z.infer<typeof consoleSessionSchema>;

/**
 * POST /api/admin/session answers 200 with either the session (cookie set) or `{ status: 'code_required' }` (password
 * right, two-factor on: send again with `code`; no cookie). Wrong credentials: 401 `invalid_credentials`; wrong code:
 * 401 `invalid_code`; throttled: 429 `too_many_attempts` with `retryAfterSeconds` and a Retry-After header.
 */
export const signInResultSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('signed_in'), session: consoleSessionSchema }),
  z.object({ status: z.literal('code_required') }),
]);
export type SignInResult = z.infer<typeof signInResultSchema>;

export const throttledErrorSchema = z.object({
  error: z.literal('too_many_attempts'),
  message: z.string(),
  retryAfterSeconds: z.number().int(),
});

/** GET /api/admin/me/2fa */
export const twoFactorStatusSchema = z.object({
  enabled: z.boolean(),
  required: z.boolean(),
  recoveryCodesLeft: z.number().int(),
});
export type TwoFactorStatus = z.infer<typeof twoFactorStatusSchema>;
/** POST /api/admin/me/2fa/setup (empty body): a new pending secret; draw otpauthUri as a QR code. */
export const twoFactorSetupSchema = z.object({ secret: z.string(), otpauthUri: z.string() });
/** POST /api/admin/me/2fa/enable and /recovery-codes: a current authenticator code. */
export const twoFactorCodeBodySchema = z
  .object({
    code: z
      .string()
      .trim()
      .regex(/^\d{6}$/, 'code must be the 6 digits from the authenticator app'),
  })
  .strict();
/** Shown once; each works once instead of an authenticator code. */
export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });
/** POST /api/admin/me/2fa/disable (sandbox only; 409 `two_factor_required` in production). */
export const twoFactorDisableBodySchema = z.object({ password: currentPasswordSchema }).strict();

// ───────────────────────────── steps ─────────────────────────────

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

export const staffRefSchema = z.object({ id: z.string(), name: z.string(), email: z.string() });

/** Who may have created links (active admins and coordinators, and anyone who created one): the board's filter. */
export const coordinatorListSchema = z.object({ coordinators: z.array(staffRefSchema) });
export type Coordinator = z.infer<typeof staffRefSchema>;

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

// ───────────────────────────── link detail ─────────────────────────────

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

export const paymentAttemptSchema = z.object({
  id: z.string(),
  at: iso,
  amount: dollars,
  /** unknown: the outcome is being checked with the gateway; duplicate: a second approval flagged for a void (issue 10). */
  status: z.enum(['creating', 'open', 'unknown', 'closed', 'approved', 'duplicate', 'failed']),
  /** Decline or error text reported for the attempt, if any. */
  declineReason: z.string().nullable(),
});

export const consolePaymentSchema = z.object({
  status: z.enum(['chosen', 'approved']),
  amount: dollars,
  paymentTypeId: z.number().int(),
  payer: z.enum(['patient', 'payor']),
  payorFullName: z.string().nullable(),
  payorEmail: z.string().nullable(),
  cardBrand: z.string().nullable(),
  cardLast4: z.string().nullable(),
  transactionId: z.string().nullable(),
  approvalCode: z.string().nullable(),
  paidAt: iso.nullable(),
  /** Dollars given back so far (refunds and voids, issue 15). */
  refunded: dollars.default(0),
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
  payment: consolePaymentSchema.nullable(),
  attempts: z.array(paymentAttemptSchema),
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

// ───────────────────────────── payments ─────────────────────────────

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

export const paymentReportRowSchema = z.object({
  linkId: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  status: z.enum(['chosen', 'approved']),
  amount: dollars,
  paymentTypeId: z.number().int(),
  payer: z.enum(['patient', 'payor']),
  payorFullName: z.string().nullable(),
  cardBrand: z.string().nullable(),
  cardLast4: z.string().nullable(),
  transactionId: z.string().nullable(),
  approvalCode: z.string().nullable(),
  /** Declined or failed gateway attempts on this payment. */
  failedAttempts: z.number().int(),
  /** Dollars given back so far (refunds and voids, issue 15). */
  refunded: dollars.default(0),
  coordinator: staffRefSchema.nullable(),
  chosenAt: iso,
  paidAt: iso.nullable(),
});

export const paymentTotalSchema = z.object({
  /** Start of the period (YYYY-MM-DD, in the practice's time zone; weeks start on Monday). */
  period: z.string(),
  approvedCount: z.number().int(),
  approvedAmount: dollars,
  attemptedCount: z.number().int(),
  attemptedAmount: dollars,
});

export const paymentReportSchema = z.object({
  rows: z.array(paymentReportRowSchema),
  total: z.number().int(),
  totals: z.array(paymentTotalSchema),
  sum: z.object({ approvedCount: z.number().int(), approvedAmount: dollars }),
  timeZone: z.string(),
});
export type PaymentReport = z.infer<typeof paymentReportSchema>;

// ───────────────────────────── funnel ─────────────────────────────

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
});
export type FunnelResult = z.infer<typeof funnelResultSchema>;

// ───────────────────────────── staff management (admin) ─────────────────────────────

export const staffListItemSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: staffRoleSchema,
  createdAt: iso,
  disabledAt: iso.nullable(),
  lastSignInAt: iso.nullable(),
  twoFactorEnabled: z.boolean(),
});
export type StaffListItem = z.infer<typeof staffListItemSchema>;
/** GET /api/admin/staff */
export const staffListSchema = z.object({ staff: z.array(staffListItemSchema) });
export const staffParamsSchema = z.object({ id: z.uuid() }).strict();
/** PATCH /api/admin/staff/:id — any subset. Disabling ends the user's sessions and tokens. */
export const updateStaffBodySchema = z
  .object({
    name: z.string().trim().max(200).optional(),
    role: staffRoleSchema.optional(),
    disabled: z.boolean().optional(),
    password: newPasswordSchema.optional(),
  })
  .strict();
// POST /api/admin/staff/:id/reset-2fa (empty body) → staffListItemSchema.

// ───────────────────────────── practice settings (admin to change; any staff to read) ─────────────────────────────

const timeZone = z
  .string()
  .max(100)
  .refine((v) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: v });
      return true;
    } catch {
      return false;
    }
  }, 'timeZone must be an IANA time zone such as America/Chicago');

/** A logo: an https URL or a PNG/JPEG data URL of at most ~200 KB. */
const logoUrl = z
  .string()
  .max(280_000)
  .refine(
    (v) => /^https:\/\/\S+$/.test(v) || /^data:image\/(png|jpeg);base64,[A-Za-z0-9+/]+=*$/.test(v),
    'logoUrl must be an https URL or a PNG/JPEG data URL',
  );

export const practiceSettingsSchema = z.object({
  name: z.string(),
  phone: z.string(),
  email: z.string(),
  logoUrl: z.string().nullable(),
  timeZone: z.string(),
});
export type PracticeSettings = z.infer<typeof practiceSettingsSchema>;

/** GET /api/admin/settings: what the product uses (override ?? env default), and both sides. */
export const practiceSettingsResultSchema = z.object({
  effective: practiceSettingsSchema,
  defaults: practiceSettingsSchema,
  /** null = not overridden (the env default applies). */
  overrides: z.object({
    name: z.string().nullable(),
    phone: z.string().nullable(),
    email: z.string().nullable(),
    logoUrl: z.string().nullable(),
    timeZone: z.string().nullable(),
  }),
  updatedAt: iso.nullable(),
});
/** PUT /api/admin/settings (admin): a field set to null goes back to the env default; an absent field is kept. */
export const updatePracticeSettingsBodySchema = z
  .object({
    name: z.string().trim().min(1).max(200).nullable().optional(),
    phone: z.string().trim().min(1).max(50).nullable().optional(),
    email: z.email('email must be an e-mail address').max(320).nullable().optional(),
    logoUrl: logoUrl.nullable().optional(),
    timeZone: timeZone.nullable().optional(),
  })
  .strict();

export const consoleLinkParamsSchema = z.object({ id: linkIdSchema }).strict();

const sha256OrNull = z.string().nullable();
/** A document of a link as staff see it (GET /api/admin/links/:id/documents). */
export const linkDocumentSchema = z.object({
  submissionId: z.string(),
  kind: z.enum(['invoice', 'contract', 'patient_id', 'payor_id', 'payment_authorization']),
  status: z.enum(['pending', 'completed']),
  linkStepId: z.number().nullable(),
  routePath: z.string().nullable(),
  signerName: z.string().nullable(),
  signatureMethod: z.enum(['draw', 'type', 'upload']).nullable(),
  completedAt: z.string().nullable(),
  ip: z.string().nullable(),
  originalSha256: sha256OrNull,
  signedSha256: sha256OrNull,
  /** Present when signed: GET it with the same staff token. */
  pdfUrl: z.string().nullable(),
  files: z.array(
    z.object({
      id: z.string(),
      side: z.enum(['front', 'back']),
      mime: z.string(),
      originalMime: z.string(),
      size: z.number(),
      sha256: z.string(),
    }),
  ),
});
export type LinkDocument = z.infer<typeof linkDocumentSchema>;
export const linkDocumentListSchema = z.array(linkDocumentSchema);

/** The practice's contract per language (console Settings; decision 0168). */
export const contractLangParamsSchema = z.object({ lang: z.enum(['en', 'es']) });
export const contractStatusSchema = z.object({
  lang: z.enum(['en', 'es']),
  source: z.enum(['upload', 'env', 'sample']).describe('the console upload, CONTRACT_PDF_PATH(_ES), or the sample'),
  fallback: z.boolean().describe('Spanish readers get the English contract with a note in Spanish'),
  upload: z
    .object({
      fileName: z.string(),
      sizeBytes: z.number(),
      pageCount: z.number(),
      sha256: z.string(),
      uploadedAt: z.string(),
      uploadedBy: z.string().nullable(),
    })
    .nullable(),
});
export type ContractStatus = z.infer<typeof contractStatusSchema>;
export const contractsResultSchema = z.object({
  contracts: z.array(contractStatusSchema),
  maxMb: z.number(),
  maxPages: z.number().describe('CONTRACT_MAX_PAGES'),
});
export type ContractsResult = z.infer<typeof contractsResultSchema>;
/** What an upload had taken off before it was stored (issue 26; decision 0195): nothing that runs reaches a reader. */
export const contractRemovedKindSchema = z.enum(['scripts', 'actions', 'attachments', 'media', 'forms']);
export type ContractRemovedKind = z.infer<typeof contractRemovedKindSchema>;
export const contractUploadResultSchema = contractsResultSchema.extend({ removed: z.array(contractRemovedKindSchema) });
export type ContractUploadResult = z.infer<typeof contractUploadResultSchema>;
export const contractPdfQuerySchema = z.object({ download: z.enum(['0', '1']).optional() });
/** The upload is the PDF itself as the body (no JSON body schema); the file name rides in the query. */
export const contractUploadQuerySchema = z.object({ fileName: z.string().max(400).optional() });
