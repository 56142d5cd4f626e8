import type { AuthErrorCode } from '@paylink/shared';
import { AppError } from '../../lib/errors.js';

/** A sign-in refusal: `{ error: 'auth/<code>', message }`. The client shows the code and a translated message. */
export class AuthError extends AppError {
  constructor(
    status: number,
    code: AuthErrorCode,
    message: string,
    /** For auth/too-many-requests: sent as the Retry-After header. */
    readonly retryAfterSeconds?: number,
  ) {
    super(status, code, message);
    this.name = 'AuthError';
  }
}

export const tooManyRequests = (message: string, retryAfterSeconds?: number) =>
  new AuthError(429, 'auth/too-many-requests', message, retryAfterSeconds);
