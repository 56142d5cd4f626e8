import { AUTH_API_ERROR_CODES } from '@paylink/shared';

/**
 * Every refusal code a use case may throw. Use cases speak in these codes only; the HTTP status of each is decided in
 * one table (http/errors.ts, decision 0121), which the type checker keeps complete: a code missing there, or one not
 * listed here, does not compile.
 */
export const APP_ERROR_CODES = [
  // The request itself
  'invalid_request',
  'amount_out_of_range',
  'not_a_session',
  // Who is asking
  'unauthorized',
  'invalid_api_key',
  'session_expired',
  'invalid_credentials',
  'invalid_code',
  'code_required',
  'link_unavailable',
  'forbidden',
  'csrf',
  'wrong_console_address',
  'two_factor_enrolment_required',
  'two_factor_locked',
  'sandbox_local_only',
  'outbox_local_only',
  'not_found',
  // Re-confirming while signed in (answered 400 with the sign-in codes' names; see http/errors.ts)
  'two_factor_code_wrong',
  'password_wrong',
  'password_reused',
  'reset_link_invalid',
  'password_change_required',
  // State conflicts
  'link_not_active',
  'step_order',
  'step_completed',
  'steps_incomplete',
  'payment_step',
  'document_not_signed',
  'payment_not_chosen',
  'payment_choice_locked',
  'payment_in_progress',
  'payment_checking',
  'agreement_required',
  'agreement_outdated',
  'agreement_changed',
  'plan_closed',
  'plan_not_active',
  'installment_not_open',
  'charge_in_progress',
  'installment_not_paid',
  'plan_pending',
  'card_not_verified',
  'payment_mismatch',
  'amount_mismatch',
  'authorization_not_signed',
  'payment_not_verified',
  'payment_not_approved',
  'not_paid',
  'no_receipt_address',
  'fully_refunded',
  'refund_exceeds_payment',
  'partial_refund_before_settlement',
  'reversal_in_progress',
  'gateway_unknown_transaction',
  'already_resolved',
  'refund_refused',
  'opted_out',
  'staff_exists',
  'last_admin',
  'two_factor_enabled',
  'two_factor_not_started',
  'two_factor_not_enabled',
  'two_factor_required',
  'idempotency_key_in_use',
  'idempotency_key_reused',
  // Signing service: documents and uploads
  'document_not_found',
  'document_expired',
  'document_cancelled',
  'document_link_completed',
  'already_completed',
  'document_changed',
  'missing_files',
  'missing_name',
  'missing_signature',
  'bad_signature',
  'upload_too_large',
  'upload_too_many_pixels',
  'upload_wrong_type',
  'upload_unreadable',
  'upload_not_multipart',
  'upload_encrypted_pdf',
  'upload_duplicate',
  'upload_not_id',
  'upload_busy',
  // The console's contract uploads
  'contract_empty',
  'contract_too_large',
  'contract_not_pdf',
  'contract_encrypted',
  'contract_unreadable',
  'contract_no_pages',
  'contract_too_many_pages',
  'contract_active_content',
  'no_upload',
  // Sign-in: the codes the patient app has sentences for (packages/shared)
  ...AUTH_API_ERROR_CODES,
  // Too many
  'too_many_attempts',
  'too_many_payment_attempts',
  'rate_limited',
  // Someone else is down
  'gateway_unavailable',
  'refund_outcome_unknown',
  'payment_unconfirmed',
  'database_unavailable',
] as const;

export type AppErrorCode = (typeof APP_ERROR_CODES)[number];

export interface AppErrorOptions {
  /** Per-field messages for a form, sent as `fields`. */
  fields?: Record<string, string>;
  /** Sent as the Retry-After header and `retryAfterSeconds` in the body. */
  retryAfterSeconds?: number;
  /** Values the client's own sentence for the code needs (e.g. the console's address), sent as `details`. */
  details?: Record<string, string>;
  cause?: unknown;
}

/** A refusal the client can act on: a machine code and a sentence for people. No HTTP here (http/errors.ts). */
export class AppError extends Error {
  readonly fields?: Record<string, string>;
  readonly retryAfterSeconds?: number;
  readonly details?: Record<string, string>;
  constructor(
    readonly code: AppErrorCode,
    message: string,
    opts: AppErrorOptions = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'AppError';
    if (opts.fields) this.fields = opts.fields;
    if (opts.retryAfterSeconds !== undefined) this.retryAfterSeconds = opts.retryAfterSeconds;
    if (opts.details) this.details = opts.details;
  }
}

/**
 * A link that cannot be used: answered with the plain-text body the client routes on (spec section 4):
 * 'Link Expired.', 'Link has been Cancelled.', 'Process has completed.' or a generic text.
 */
export class LinkStateError extends AppError {
  constructor(readonly body: string) {
    super('link_unavailable', body);
    this.name = 'LinkStateError';
  }
}

export const badRequest = (message: string, fields?: Record<string, string>) =>
  new AppError('invalid_request', message, fields ? { fields } : {});
export const unauthorized = (message = 'Sign in again to continue.') => new AppError('unauthorized', message);
export const forbidden = (message = 'This link belongs to someone else.') => new AppError('forbidden', message);
export const notFound = (message = 'Not found.') => new AppError('not_found', message);
