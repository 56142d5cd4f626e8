import { z } from 'zod';
import { currentPasswordSchema, loginBodySchema, newPasswordSchema, staffRoleSchema } from '../admin.js';
import { iso } from './wire.js';

/**
 * Sign-in, the console's session and two-factor. Cookie-authenticated requests other than GET/HEAD must carry the
 * header `x-paylink-console: 1` (CSRF defence together with SameSite=Strict).
 */

/** Header a cookie-authenticated mutation must carry. */
export const CONSOLE_CSRF_HEADER = 'x-paylink-console';
/** Send `x-paylink-background: 1` on polling requests: they do not count as activity for the idle time-out. */
export const CONSOLE_BACKGROUND_HEADER = 'x-paylink-background';
/** Every cookie-authenticated answer carries the session's current idle expiry in this header (ISO time). */
export const SESSION_EXPIRES_HEADER = 'x-session-expires-at';
export const CONSOLE_IDLE_TIMEOUT_MINUTES = 30;

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
  /**
   * An admin reset the password: until the user picks a new one, every route except the session, sign-out and
   * POST /api/admin/me/password answers 403 `password_change_required`.
   */
  passwordChangeRequired: z.boolean(),
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

/**
 * POST /api/admin/me/password (204): the current password, a new one (the same rule as a new staff user's) and, when
 * two-factor is on, a current code. Ends the user's other sessions and every CLI token; the user is e-mailed.
 * Wrong password: 400 `invalid_credentials`; wrong or missing code: 400 `invalid_code`; the same password: 400
 * `password_reused`.
 */
export const changePasswordBodySchema = z
  .object({
    currentPassword: currentPasswordSchema,
    newPassword: newPasswordSchema,
    code: z.string().trim().max(40).optional(),
  })
  .strict();
export type ChangePasswordBody = z.infer<typeof changePasswordBodySchema>;

/**
 * POST /api/admin/password-reset ("forgot password"): always the same answer, whether the address is a staff
 * account or not; an active account gets an e-mail with a link valid 30 minutes (limited per address and per IP).
 */
export const passwordResetRequestBodySchema = z
  .object({ email: z.email('email must be an e-mail address').max(320) })
  .strict();
export const passwordResetRequestResultSchema = z.object({ status: z.literal('accepted') });

/** The token in a reset link (`…/console/reset-password#token=…`). */
export const passwordResetTokenSchema = z.string().regex(/^plr_[A-Za-z0-9_-]{20,100}$/, 'the reset link is not valid');
/** POST /api/admin/password-reset/complete (204): a used, expired or unknown link is 400 `reset_link_invalid`. */
export const passwordResetCompleteBodySchema = z
  .object({ token: passwordResetTokenSchema, newPassword: newPasswordSchema })
  .strict();
