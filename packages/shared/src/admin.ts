import { z } from 'zod';
import { linkIdSchema } from './api.js';
import { staffPaymentSchema } from './console/staff-payment.js';
import { Languages, SignInMethods } from './ids.js';
import { planInputSchema, planTotalProblem, planViewSchema } from './plans.js';
import { freeTextString, nameString } from './text.js';

/**
 * The coordinator (admin) API under /api/admin and the CLI that calls it. Amounts are US dollars on the wire
 * (numbers with up to two decimals), integer cents in the database.
 */

export const staffRoleSchema = z.enum(['admin', 'coordinator', 'billing']);
export type StaffRole = z.infer<typeof staffRoleSchema>;

export const staffUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: staffRoleSchema,
  createdAt: z.string(),
});
export type StaffUser = z.infer<typeof staffUserSchema>;

/** A password as typed at sign-in (any characters: it is compared, never shown or stored). */
export const currentPasswordSchema = z.string().min(1, 'password is required').max(1000);
/** A new password a staff user gets (created, or changed by an admin). */
export const newPasswordSchema = z.string().min(12, 'password must be at least 12 characters').max(1000);

/** Staff sign-in, the console's (POST /api/admin/session) and the token's (POST /api/admin/login). */
export const loginBodySchema = z
  .object({
    email: z.email('email must be an e-mail address').max(320),
    password: currentPasswordSchema,
    /** Needed when two-factor is on: a 6-digit authenticator code or a recovery code. */
    code: z.string().trim().max(40).optional(),
  })
  .strict();

export const loginResultSchema = z.object({
  token: z.string(),
  expiresAt: z.string().nullable(),
  user: staffUserSchema,
});

export const createStaffBodySchema = z
  .object({
    email: z.email('email must be an e-mail address').max(320),
    name: nameString(200).optional().default(''),
    password: newPasswordSchema,
    role: staffRoleSchema.optional().default('coordinator'),
  })
  .strict();

/** "14d", "36h", "90m" or a plain number of days → minutes (1 minute to 365 days). */
export function parseDuration(text: string): number | null {
  const m = /^\s*(\d{1,6})\s*([dhm]?)\s*$/i.exec(text);
  if (!m) return null;
  const n = Number(m[1]);
  const unit = (m[2] || 'd').toLowerCase();
  const minutes = unit === 'd' ? n * 1440 : unit === 'h' ? n * 60 : n;
  return minutes >= 1 && minutes <= 365 * 1440 ? minutes : null;
}

export const expiresInSchema = z
  .string()
  .max(20)
  .transform((v, ctx) => {
    const minutes = parseDuration(v);
    if (minutes === null) {
      ctx.addIssue({ code: 'custom', message: 'expiresIn must look like 14d, 36h or 90m (at most 365d)' });
      return z.NEVER;
    }
    return minutes;
  });

const phoneDigits = (v: string) => v.replace(/[\s().+-]/g, '');

/** US numbers: 10 digits (or 11 starting with 1); others in international form with a leading +. */
export function normalizePhone(input: string): string | null {
  const t = input.trim();
  if (t === '') return '';
  if (!/^\+?[\d\s().-]{7,25}$/.test(t)) return null;
  const digits = phoneDigits(t);
  if (!/^\d+$/.test(digits)) return null;
  if (t.startsWith('+')) return digits.length >= 8 && digits.length <= 15 ? `+${digits}` : null;
  if (digits.length === 10) return `+1${digits}`;
  if (digits.length === 11 && digits.startsWith('1')) return `+${digits}`;
  return null;
}

const text = (max: number) => freeTextString(max).optional().default('');

export const createLinkBodySchema = z
  .object({
    firstName: nameString(100).pipe(z.string().min(1, 'firstName is required')),
    lastName: nameString(100).pipe(z.string().min(1, 'lastName is required')),
    address: text(200),
    city: text(100),
    state: text(50),
    zipCode: z
      .string()
      .trim()
      .regex(/^(\d{5}(-\d{4})?)?$/, 'zipCode must be a US ZIP code like 90210 or 90210-1234')
      .optional()
      .default(''),
    phone: z
      .string()
      .max(30)
      .optional()
      .default('')
      .transform((v, ctx) => {
        const p = normalizePhone(v);
        if (p === null) {
          ctx.addIssue({
            code: 'custom',
            message: 'phone must be a US number like (555) 010-1234 or +<country><number>',
          });
          return z.NEVER;
        }
        return p;
      }),
    email: z
      .union([z.email('email must be an e-mail address').max(320), z.literal('')])
      .optional()
      .default('')
      .transform((v) => v.toLowerCase()),
    payorName: nameString(200).optional(),
    payorEmail: z.email('payorEmail must be an e-mail address').max(320).optional(),
    isPaymentLinkLocked: z.boolean().optional().default(false),
    signInMethod: z.enum(SignInMethods).optional(),
    language: z.enum(Languages).optional().default('en'),
    expiresIn: expiresInSchema.optional(),
    procedureDescription: text(500),
    /** Send the personal link right away by SMS or e-mail (issue 14). */
    send: z.enum(['sms', 'email']).optional(),
    /** A payment plan (issue 28): the total, then the balance on a date or in instalments. */
    plan: planInputSchema.optional(),
  })
  .strict()
  .transform((v, ctx) => {
    // The total against the link's amount rules; the dates against the practice's today are the server's to check.
    const totalProblem = v.plan ? planTotalProblem(v.plan.total, { locked: v.isPaymentLinkLocked }) : null;
    if (totalProblem) ctx.addIssue({ code: 'custom', path: ['plan', 'total'], message: totalProblem });
    const signInMethod = v.signInMethod ?? (v.phone ? 'sms' : 'email');
    if (signInMethod === 'sms' && !v.phone) {
      ctx.addIssue({ code: 'custom', path: ['phone'], message: 'phone is required when signInMethod is sms' });
    }
    if (signInMethod === 'email' && !v.email) {
      ctx.addIssue({ code: 'custom', path: ['email'], message: 'email is required when signInMethod is email' });
    }
    return { ...v, signInMethod };
  });
export type CreateLinkBody = z.input<typeof createLinkBodySchema>;
export type CreateLinkInput = z.output<typeof createLinkBodySchema>;

export const linkStateSchema = z.enum(['active', 'expired', 'cancelled', 'completed']);

export const createLinkResultSchema = z.object({
  id: z.string(),
  url: z.string(),
  expiresAt: z.string(),
  /** Present when the create request asked to send the link (issue 14). */
  message: z.object({ id: z.string(), channel: z.enum(['sms', 'email']), to: z.string() }).optional(),
});

export const linkSummarySchema = z.object({
  id: z.string(),
  url: z.string(),
  /** Derived: 'expired' = active and past expiresAt. */
  status: linkStateSchema,
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.string(),
  signInMethod: z.enum(SignInMethods),
  language: z.enum(Languages),
  isPaymentLinkLocked: z.boolean(),
  payorName: z.string().nullable(),
  payorEmail: z.string().nullable(),
  procedureDescription: z.string(),
  expiresAt: z.string(),
  createdAt: z.string(),
  progress: z.object({
    completed: z.number().int(),
    total: z.number().int(),
    currentRoutePath: z.string().nullable(),
  }),
  payment: staffPaymentSchema.nullable(),
});
export type LinkSummary = z.infer<typeof linkSummarySchema>;

export const listLinksQuerySchema = z
  .object({
    status: linkStateSchema.optional(),
    limit: z.coerce.number().int().min(1).max(500).optional().default(50),
    offset: z.coerce.number().int().min(0).optional().default(0),
  })
  .strict();

export const listLinksResultSchema = z.object({ links: z.array(linkSummarySchema), total: z.number().int() });

export const auditEventSchema = z.object({
  at: z.string(),
  actorType: z.enum(['link', 'staff', 'system']),
  actorId: z.string().nullable(),
  action: z.string(),
  requestId: z.string().nullable(),
  ip: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
});

export const linkDetailSchema = linkSummarySchema.extend({
  address: z.string(),
  city: z.string(),
  state: z.string(),
  zipCode: z.string(),
  steps: z.array(
    z.object({
      linkStepId: z.number().int(),
      routePath: z.string(),
      documentUrl: z.string().nullable(),
      linkStepStatusId: z.number().int(),
      completedAt: z.string().nullable(),
    }),
  ),
  timeline: z.array(auditEventSchema),
  /** The payment plan, or null for a link without one. */
  plan: planViewSchema.nullable(),
});
export type LinkDetail = z.infer<typeof linkDetailSchema>;

export const adminLinkParamsSchema = z.object({ id: linkIdSchema }).strict();

export const listPaymentsQuerySchema = z
  .object({
    status: z.enum(['chosen', 'approved']).optional(),
    limit: z.coerce.number().int().min(1).max(500).optional().default(50),
    offset: z.coerce.number().int().min(0).optional().default(0),
  })
  .strict();

/** A gateway approval staff must act on (issue 10): a second charge for a paid link, to void or refund. */
export const paymentAttentionSchema = z.object({
  attemptId: z.string(),
  transactionId: z.string().nullable(),
  /** US dollars. */
  amount: z.number(),
  reason: z.string(),
  cardLast4: z.string().nullable(),
  flaggedAt: z.string(),
});
export type PaymentAttention = z.infer<typeof paymentAttentionSchema>;

export const paymentListItemSchema = staffPaymentSchema.extend({
  linkId: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  createdAt: z.string(),
  /** Approvals at the gateway that need a void or refund (empty when none). */
  attention: z.array(paymentAttentionSchema).default([]),
});

export const listPaymentsResultSchema = z.object({ payments: z.array(paymentListItemSchema), total: z.number().int() });
