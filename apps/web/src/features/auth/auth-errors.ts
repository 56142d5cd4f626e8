import { ApiError, NetworkError } from '../../lib/api-client';

/** The provider-style code of a failed sign-in call; the client's own for network failures. */
export function authErrorCode(e: unknown): string {
  if (e instanceof NetworkError) return 'auth/network-request-failed';
  if (e instanceof ApiError && e.code) return e.code;
  if (e instanceof ApiError) return `http/${e.status}`;
  return 'auth/internal-error';
}

/** Link-state answers (401 text) are routed, not shown in the alert. */
export function isLinkStateFailure(e: unknown): boolean {
  return e instanceof ApiError && e.status === 401 && !e.code;
}
