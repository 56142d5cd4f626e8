import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { DatabaseUnavailableError } from '../db/client.js';
import { AppError, LinkStateError, type AppErrorCode } from '../lib/errors.js';

/**
 * THE table from refusal codes to HTTP (decision 0121): use cases throw `AppError(code, …)` and never pick a status.
 * A number is the status; `[status, name]` answers under another code's name, for the two re-confirmations that keep
 * the sign-in codes' names but answer 400 (the caller is signed in) and the 400 for an upload that is not multipart.
 * `satisfies Record<AppErrorCode, …>` makes a missing or unknown code a type error.
 */
const HTTP_STATUS = {
  invalid_request: 400,
  amount_out_of_range: 400,
  not_a_session: 400,
  two_factor_code_wrong: [400, 'invalid_code'],
  password_wrong: [400, 'invalid_credentials'],
  password_reused: 400,
  reset_link_invalid: 400,
  upload_not_multipart: [400, 'upload_unreadable'],
  upload_not_id: 400,
  contract_empty: 400,
  contract_encrypted: 400,
  contract_unreadable: 400,
  contract_no_pages: 400,
  contract_too_many_pages: 400,
  contract_active_content: 400,
  'auth/invalid-verification-code': 400,
  'auth/code-expired': 400,
  'auth/captcha-check-failed': 400,
  'auth/invalid-email': 400,
  'auth/expired-action-code': 400,
  'auth/invalid-action-code': 400,

  unauthorized: 401,
  invalid_api_key: 401,
  session_expired: 401,
  invalid_credentials: 401,
  invalid_code: 401,
  code_required: 401,
  link_unavailable: 401,

  forbidden: 403,
  csrf: 403,
  wrong_console_address: 403,
  two_factor_enrolment_required: 403,
  two_factor_locked: 403,
  password_change_required: 403,
  sandbox_local_only: 403,
  outbox_local_only: 403,

  not_found: 404,
  document_not_found: 404,
  no_upload: 404,

  link_not_active: 409,
  step_order: 409,
  step_completed: 409,
  steps_incomplete: 409,
  payment_step: 409,
  document_not_signed: 409,
  payment_not_chosen: 409,
  payment_choice_locked: 409,
  payment_in_progress: 409,
  payment_checking: 409,
  agreement_required: 409,
  agreement_outdated: 409,
  agreement_changed: 409,
  plan_closed: 409,
  plan_not_active: 409,
  installment_not_open: 409,
  charge_in_progress: 409,
  installment_not_paid: 409,
  plan_pending: 409,
  card_not_verified: 409,
  payment_mismatch: 409,
  amount_mismatch: 409,
  authorization_not_signed: 409,
  payment_not_verified: 409,
  payment_not_approved: 409,
  not_paid: 409,
  no_receipt_address: 409,
  fully_refunded: 409,
  refund_exceeds_payment: 409,
  partial_refund_before_settlement: 409,
  reversal_in_progress: 409,
  gateway_unknown_transaction: 409,
  already_resolved: 409,
  refund_refused: 409,
  opted_out: 409,
  staff_exists: 409,
  last_admin: 409,
  two_factor_enabled: 409,
  two_factor_not_started: 409,
  two_factor_not_enabled: 409,
  two_factor_required: 409,
  idempotency_key_in_use: 409,
  already_completed: 409,
  document_changed: 409,
  upload_duplicate: 409,

  document_expired: 410,
  document_cancelled: 410,
  document_link_completed: 410,

  upload_too_large: 413,
  upload_too_many_pixels: 413,
  upload_wrong_type: 415,
  contract_too_large: 413,
  contract_not_pdf: 415,

  idempotency_key_reused: 422,
  missing_files: 422,
  missing_name: 422,
  missing_signature: 422,
  bad_signature: 422,
  upload_unreadable: 422,
  upload_encrypted_pdf: 422,

  'auth/too-many-requests': 429,
  too_many_attempts: 429,
  too_many_payment_attempts: 429,
  rate_limited: 429,

  gateway_unavailable: 502,
  refund_outcome_unknown: 502,

  payment_unconfirmed: 503,
  database_unavailable: 503,
  upload_busy: 503,
} as const satisfies Record<AppErrorCode, number | readonly [number, AppErrorCode]>;

/** The status and the `error` name a refusal is answered with; shared by the API and the signing server. */
export function httpErrorOf(error: AppError): { status: number; error: string } {
  const entry = (HTTP_STATUS as Record<string, number | readonly [number, string]>)[error.code];
  // Unreachable for typed code; a code smuggled past the types is our bug, answered like any other bug.
  if (entry === undefined) return { status: 500, error: error.code };
  return typeof entry === 'number' ? { status: entry, error: error.code } : { status: entry[0], error: entry[1] };
}

export const httpStatusOf = (error: AppError): number => httpErrorOf(error).status;

function fieldsFromZod(err: ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of err.issues) {
    const key = issue.path.join('.') || '_';
    fields[key] ??= issue.message;
  }
  return fields;
}

/** Errors of the layers below that are answered like a domain error: a lost database is a 503 to retry. */
export function asAppError<E>(error: E): E | AppError {
  return error instanceof DatabaseUnavailableError
    ? new AppError('database_unavailable', error.message, { cause: error })
    : error;
}

/** The single error handler: typed errors map to their status; anything unknown is logged and answered 500. */
export function errorHandler(thrown: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const error = asAppError(thrown);
  if (error instanceof LinkStateError) {
    return reply.status(httpStatusOf(error)).type('text/plain; charset=utf-8').send(error.body);
  }
  if (error instanceof AppError) {
    const { status, error: name } = httpErrorOf(error);
    const retry = error.retryAfterSeconds;
    if (retry !== undefined) reply.header('retry-after', String(retry));
    else if (status === 503) reply.header('retry-after', '2');
    return reply.status(status).send({
      error: name,
      message: error.message,
      ...(error.fields ? { fields: error.fields } : {}),
      ...(error.details ? { details: error.details } : {}),
      ...(retry !== undefined ? { retryAfterSeconds: retry } : {}),
    });
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const fields: Record<string, string> = {};
    for (const v of error.validation) {
      const where = v.instancePath.replace(/^\//, '').replaceAll('/', '.');
      const key = where || (v.params?.issue as { path?: unknown[] } | undefined)?.path?.join('.') || '_';
      fields[key] ??= v.message ?? 'is invalid';
    }
    const first = Object.entries(fields)[0];
    const message = first ? `${first[0] === '_' ? '' : `${first[0]}: `}${first[1]}` : 'The request is invalid.';
    return reply.status(400).send({ error: 'invalid_request', message, fields });
  }
  if (error instanceof ZodError) {
    return reply
      .status(400)
      .send({ error: 'invalid_request', message: 'The request is invalid.', fields: fieldsFromZod(error) });
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const messages: Record<string, string> = {
      FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is too large.',
      FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Send the body as application/json.',
      FST_ERR_CTP_EMPTY_JSON_BODY: 'The JSON body is empty.',
      FST_ERR_CTP_INVALID_JSON_BODY: 'The body is not valid JSON.',
    };
    const message =
      (error.code && messages[error.code]) ||
      (error.message.includes('JSON') ? 'The body is not valid JSON.' : error.message);
    return reply.status(status).send({ error: status === 413 ? 'payload_too_large' : 'invalid_request', message });
  }
  request.log.error({ err: error }, 'unhandled error');
  return reply.status(500).send({ error: 'internal', message: 'Something went wrong on our side. Please try again.' });
}
