import { patientEndpoints } from '@paylink/shared';
/** Signing out: forget the session, ask the server to revoke it and clear its httpOnly cookie, go to /auth. */
import type { NavigateFunction } from './router';
import type { AppDispatch } from '../store/store';
import { signOut } from '../store/auth-slice';
import { call } from './api-client';

export function authPath(linkId: string | undefined): string {
  return linkId ? `/auth?id=${encodeURIComponent(linkId)}` : '/auth';
}

/** Router state /auth reads to say why the patient is there (issue 16, item 8). */
export interface AuthRouteState {
  sessionExpired?: boolean;
}

/**
 * Set when a session ran out in this tab, read by /auth. Kept beside the router state because the guard that sees
 * the signed-out store may redirect to /auth again (without state) in the same tick as the sign-out.
 */
let sessionExpiredPending = false;
export const sessionExpiredNoticePending = () => sessionExpiredPending;
export const clearSessionExpiredNotice = () => {
  sessionExpiredPending = false;
};

export function signOutAndRedirect(
  dispatch: AppDispatch,
  navigate: NavigateFunction,
  linkId: string | undefined,
  reason?: 'expired',
) {
  // Best effort: an expired session may already be gone on the server.
  void call(patientEndpoints.logout).catch(() => undefined);
  dispatch(signOut());
  if (reason === 'expired') sessionExpiredPending = true;
  const state: AuthRouteState | undefined = reason === 'expired' ? { sessionExpired: true } : undefined;
  void navigate(authPath(linkId), { replace: true, state });
}

/** A JWT's exp claim as an ISO date (for a token that arrives in the jwt_authorization query parameter). */
export function jwtExpiry(token: string): string | undefined {
  try {
    const payload = token.split('.')[1];
    if (!payload) return undefined;
    const json = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: unknown };
    return typeof json.exp === 'number' ? new Date(json.exp * 1000).toISOString() : undefined;
  } catch {
    return undefined;
  }
}
