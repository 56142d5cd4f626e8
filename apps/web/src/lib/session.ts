/** Signing out: forget the session, ask the server to revoke it and clear its httpOnly cookie, go to /auth. */
import type { NavigateFunction } from 'react-router';
import type { AppDispatch } from '../store/store';
import { signOut } from '../store/auth-slice';
import { api } from './api-client';

export function authPath(linkId: string | undefined): string {
  return linkId ? `/auth?id=${encodeURIComponent(linkId)}` : '/auth';
}

export function signOutAndRedirect(dispatch: AppDispatch, navigate: NavigateFunction, linkId: string | undefined) {
  // Best effort: an expired session may already be gone on the server.
  void api.post('/api/auth/logout').catch(() => undefined);
  dispatch(signOut());
  void navigate(authPath(linkId), { replace: true });
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
