import { z } from 'zod';
import { linkIdSchema } from './api.js';
import { Languages, SignInMethods } from './ids.js';

/**
 * Sign-in contract (issue 3): SMS one-time code or e-mailed sign-in link, answered by our own server.
 * Errors are `{ error: 'auth/<code>', message }`; the client shows the code inside the parentheses of a translated
 * provider-style message, e.g. `Firebase: Error (auth/invalid-verification-code).` (spec section 8).
 */

/** Every code the sign-in API answers with (the server's error codes include these). */
export const AUTH_API_ERROR_CODES = [
  'auth/invalid-verification-code',
  'auth/code-expired',
  'auth/too-many-requests',
  'auth/captcha-check-failed',
  'auth/invalid-email',
  'auth/expired-action-code',
  'auth/invalid-action-code',
] as const;
/** Every code the patient app shows a sentence for: the API's, and the client's own when the server is unreachable. */
export const AUTH_ERROR_CODES = [...AUTH_API_ERROR_CODES, 'auth/network-request-failed'] as const;
export type AuthErrorCode = (typeof AUTH_ERROR_CODES)[number];

/** Client helper: the text inside the parentheses, e.g. `auth/code-expired` → shown as `(auth/code-expired)`. */
export function formatAuthErrorCode(code: string): string {
  return `Firebase: Error (${code}).`;
}

export const signInMethodSchema = z.enum(SignInMethods);

/** The one-time code: exactly 6 digits. */
export const OTP_LENGTH = 6;
export const otpCodeSchema = z
  .string()
  .trim()
  .regex(/^\d{6}$/, 'Enter the 6-digit code');

/** GET /api/auth/options?linkId= */
export const authOptionsQuerySchema = z.object({ linkId: linkIdSchema }).strict();
export const authOptionsSchema = z.object({
  method: signInMethodSchema,
  /** Cloudflare Turnstile site key; null in sandbox mode (no widget, the server's sandbox captcha passes). */
  captchaSiteKey: z.string().nullable(),
});
export type AuthOptions = z.infer<typeof authOptionsSchema>;

/** Turnstile tokens are at most 2048 characters. */
const captchaTokenSchema = z.string().max(2048).optional();

/** POST /api/auth/sms/send */
/** The language the patient is using on /auth; the SMS or e-mail is written in it (default: the link's language). */
const messageLanguageSchema = z.enum(Languages).optional();

export const smsSendBodySchema = z
  .object({ linkId: linkIdSchema, captchaToken: captchaTokenSchema, lng: messageLanguageSchema })
  .strict();
export type SmsSendBody = z.infer<typeof smsSendBodySchema>;
export const smsSendResultSchema = z.object({
  /** Seconds until another code may be requested (the resend cooldown). */
  resendAfterSeconds: z.number().int().nonnegative(),
  /** Seconds the code just sent stays valid. */
  expiresInSeconds: z.number().int().positive(),
});
export type SmsSendResult = z.infer<typeof smsSendResultSchema>;

/** POST /api/auth/sms/verify. A malformed code → 400 auth/invalid-verification-code (not counted as a try). */
export const smsVerifyBodySchema = z.object({ linkId: linkIdSchema, code: otpCodeSchema }).strict();
export type SmsVerifyBody = z.infer<typeof smsVerifyBodySchema>;

/** Loose e-mail shape check shared by client and server. */
export const emailAddressSchema = z.email('Enter a valid e-mail address').max(254);

/** POST /api/auth/email/send. A malformed address → 400 auth/invalid-email. */
export const emailSendBodySchema = z
  .object({
    linkId: linkIdSchema,
    email: z.string().trim().pipe(emailAddressSchema),
    captchaToken: captchaTokenSchema,
    lng: messageLanguageSchema,
  })
  .strict();
export type EmailSendBody = z.infer<typeof emailSendBodySchema>;
/**
 * Always `{ sent: true }`, whether or not the address matched the one on file, with the resend cooldown the page
 * counts down (the same for every answer, so it tells nothing about the address).
 */
export const emailSendResultSchema = z.object({
  sent: z.literal(true),
  resendAfterSeconds: z.number().int().nonnegative(),
});
export type EmailSendResult = z.infer<typeof emailSendResultSchema>;

/** POST /api/auth/email/verify — the click on the /auth page after opening the e-mailed link. A malformed oobCode →
 * 400 auth/invalid-action-code. */
export const emailVerifyBodySchema = z
  .object({
    linkId: linkIdSchema,
    oobCode: z.string().trim().min(1).max(200),
  })
  .strict();
export type EmailVerifyBody = z.infer<typeof emailVerifyBodySchema>;

/** Answer of every sign-in (sms/verify, email/verify, session/refresh); the cookie `jwt_authorization` is set too. */
export const sessionResultSchema = z.object({
  token: z.string(),
  /** ISO 8601 time the token stops working (the client's exp_Date). */
  expiresAt: z.string(),
});
export type SessionResult = z.infer<typeof sessionResultSchema>;

/** The error body of the sign-in API. */
export const authErrorSchema = z.object({ error: z.string(), message: z.string() });
export type AuthError = z.infer<typeof authErrorSchema>;

/** The session cookie's name (spec). */
export const SESSION_COOKIE_NAME = 'jwt_authorization';
