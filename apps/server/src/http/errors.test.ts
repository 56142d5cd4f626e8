import { describe, expect, it } from 'vitest';
import { AuthError } from '../modules/auth/auth-errors.js';
import { UploadRefused } from '../modules/signing/normalise-upload.js';
import { SubmissionRefused } from '../modules/signing/open-submission.js';
import {
  APP_ERROR_CODES,
  AppError,
  LinkStateError,
  badRequest,
  forbidden,
  notFound,
  unauthorized,
} from '../lib/errors.js';
import { httpErrorOf, httpStatusOf } from './errors.js';

describe('the refusal code → HTTP table (decision 0121)', () => {
  it('maps every code to a 4xx or 5xx status other than 500', () => {
    for (const code of APP_ERROR_CODES) {
      const status = httpStatusOf(new AppError(code, 'x'));
      expect(status, code).toBeGreaterThanOrEqual(400);
      expect(status, code).toBeLessThan(600);
      expect(status, code).not.toBe(500);
    }
  });

  it('answers representative codes with the statuses clients rely on', () => {
    expect(httpErrorOf(badRequest('x'))).toEqual({ status: 400, error: 'invalid_request' });
    expect(httpErrorOf(unauthorized())).toEqual({ status: 401, error: 'unauthorized' });
    expect(httpErrorOf(forbidden())).toEqual({ status: 403, error: 'forbidden' });
    expect(httpErrorOf(notFound())).toEqual({ status: 404, error: 'not_found' });
    expect(httpStatusOf(new AppError('link_not_active', 'x'))).toBe(409);
    expect(httpStatusOf(new AppError('idempotency_key_reused', 'x'))).toBe(422);
    expect(httpStatusOf(new AppError('gateway_unavailable', 'x'))).toBe(502);
    expect(httpStatusOf(new AppError('database_unavailable', 'x'))).toBe(503);
    expect(httpStatusOf(new LinkStateError('Link Expired.'))).toBe(401);
    expect(httpStatusOf(new AuthError('auth/too-many-requests', 'x', 30))).toBe(429);
    expect(httpStatusOf(new AuthError('auth/code-expired', 'x'))).toBe(400);
  });

  it('keeps the signing service statuses', () => {
    expect(httpStatusOf(new SubmissionRefused('not_found'))).toBe(404);
    expect(httpStatusOf(new SubmissionRefused('expired'))).toBe(410);
    expect(httpStatusOf(new SubmissionRefused('already_completed'))).toBe(409);
    expect(httpErrorOf(new UploadRefused('too_large'))).toEqual({ status: 413, error: 'upload_too_large' });
    expect(httpErrorOf(new UploadRefused('wrong_type'))).toEqual({ status: 415, error: 'upload_wrong_type' });
    expect(httpErrorOf(new UploadRefused('unreadable'))).toEqual({ status: 422, error: 'upload_unreadable' });
    expect(httpStatusOf(new UploadRefused('busy'))).toBe(503);
  });

  it('answers the signed-in re-confirmations 400 under the sign-in codes’ names', () => {
    expect(httpErrorOf(new AppError('invalid_code', 'x'))).toEqual({ status: 401, error: 'invalid_code' });
    expect(httpErrorOf(new AppError('two_factor_code_wrong', 'x'))).toEqual({ status: 400, error: 'invalid_code' });
    expect(httpErrorOf(new AppError('password_wrong', 'x'))).toEqual({ status: 400, error: 'invalid_credentials' });
    expect(httpErrorOf(new UploadRefused('unreadable', 'upload_not_multipart'))).toEqual({
      status: 400,
      error: 'upload_unreadable',
    });
  });

  it('answers 500 for a code smuggled past the types', () => {
    const rogue = new AppError('not_found', 'x');
    Object.defineProperty(rogue, 'code', { value: 'no_such_code' });
    expect(httpStatusOf(rogue)).toBe(500);
  });
});
