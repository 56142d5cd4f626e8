import { AppError, type AppErrorCode } from '../../lib/errors.js';

/** The sign-in codes the server answers with (packages/shared AUTH_API_ERROR_CODES). */
export type ServerAuthErrorCode = Extract<AppErrorCode, `auth/${string}`>;

/** A sign-in refusal: `{ error: 'auth/<code>', message }`. The client shows the code and a translated message. */
export class AuthError extends AppError {
  constructor(code: ServerAuthErrorCode, message: string, retryAfterSeconds?: number) {
    super(code, message, retryAfterSeconds === undefined ? {} : { retryAfterSeconds });
    this.name = 'AuthError';
  }
}

/** For auth/too-many-requests the wait is sent as the Retry-After header. */
export const tooManyRequests = (message: string, retryAfterSeconds?: number) =>
  new AuthError('auth/too-many-requests', message, retryAfterSeconds);
