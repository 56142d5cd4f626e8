/**
 * Turning a failed call into what the spec asks for (sections 4 and 8). Fixed interface:
 *   const fail = useApiFailure();
 *   try { ... } catch (e) { const shown = fail(e); if (shown) setError(shown); }   // then <ErrorDisplay error={error} />
 * fail(e, { lookup?: boolean }) routes and returns null, or returns the ApiError the page should display:
 * - NetworkError (no answer, 30/60 s time-out) or an unexpected exception → the catch-all page (/notfound);
 * - 401 'Link Expired.' → /linkexpired, 'Link has been Cancelled.' → /linkcancelled, 'Process has completed.' →
 *   /stepscomplete; any other 401 → sign-out and /auth (or /notauthorized when opts.lookup, the phone lookup rule);
 * - 403 → /forbidden;
 * - any other ApiError → returned, for the 'Error {status} {statusText}' display.
 */
import { useCallback } from 'react';
import { useStore } from 'react-redux';
import { useNavigate } from './router';
import { LinkMessages } from '@paylink/shared';
import { useAppDispatch } from '../store/hooks';
import type { RootState } from '../store/store';
import { ApiError, NetworkError } from './api-client';
import { signOutAndRedirect } from './session';

export type FailureRoute =
  | { kind: 'page'; path: string }
  | { kind: 'signOut' }
  | { kind: 'catchAll'; reason: 'network' | 'exception' }
  | { kind: 'display'; error: ApiError };

/** Pure routing rule, tested on its own. */
export function routeFailure(e: unknown, opts: { lookup?: boolean } = {}): FailureRoute {
  if (e instanceof NetworkError) return { kind: 'catchAll', reason: 'network' };
  if (!(e instanceof ApiError)) return { kind: 'catchAll', reason: 'exception' };
  if (e.status === 401) {
    const text = e.text.trim();
    if (text === LinkMessages.expired) return { kind: 'page', path: '/linkexpired' };
    if (text === LinkMessages.cancelled) return { kind: 'page', path: '/linkcancelled' };
    if (text === LinkMessages.completed) return { kind: 'page', path: '/stepscomplete' };
    return opts.lookup ? { kind: 'page', path: '/notauthorized' } : { kind: 'signOut' };
  }
  if (e.status === 403) return { kind: 'page', path: '/forbidden' };
  return { kind: 'display', error: e };
}

export function useApiFailure() {
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  // The link id is read when a failure happens, so the callback stays the same while it is being set.
  const store = useStore<RootState>();
  return useCallback(
    (e: unknown, opts: { lookup?: boolean } = {}): ApiError | null => {
      if (e instanceof DOMException && e.name === 'AbortError') return null; // the page went away
      const r = routeFailure(e, opts);
      switch (r.kind) {
        case 'page':
          void navigate(r.path, { replace: true });
          return null;
        case 'signOut':
          // The server no longer accepts the session (it expired or was ended): say so on /auth.
          signOutAndRedirect(dispatch, navigate, store.getState().link.link_id, 'expired');
          return null;
        case 'catchAll':
          void navigate('/notfound', { replace: true, state: { reason: r.reason } });
          return null;
        case 'display':
          return r.error;
      }
    },
    [navigate, dispatch, store],
  );
}
