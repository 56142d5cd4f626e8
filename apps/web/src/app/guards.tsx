/**
 * Route guards (spec section 2 and 4; decisions 0021):
 * - RequireSession: no link id → /forbidden; no or expired session → /auth?id=<link id>. On the first page load
 *   of a step page (a reload, a bookmark) the continue check runs first, so the page follows the server (another
 *   browser may have moved on): clear, check, then currentRoutePath (200) or /patientinfo (404).
 * - RequireSteps: no step list → the unauthorised page titled by error401Title; a step route that is not in this
 *   link's list → the same page; a step whose earlier steps are not complete → the first incomplete one.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { useStore } from 'react-redux';
import { Navigate, useLocation, useNavigate } from '../lib/router';
import { StepStatus, StepRoutes } from '@paylink/shared';
import { useAppSelector } from '../store/hooks';
import { isSessionValid } from '../store/auth-slice';
import { selectSteps } from '../store/step-production-slice';
import { authPath, type AuthRouteState } from '../lib/session';
import { UnauthorizedPage } from '../features/errors/error-pages';
import { continueCheck } from '../features/patient-info/load-patient-info';
import { useApiFailure } from '../lib/use-api-failure';
import { ErrorDisplay } from '../components/error-display';
import { PageSkeleton } from '../components/page-skeleton';
import type { ApiError } from '../lib/api-client';
import type { AppDispatch, RootState } from '../store/store';

export function RequireSession(props: { children: ReactNode }) {
  const auth = useAppSelector((s) => s.auth);
  const linkId = useAppSelector((s) => s.link.link_id);
  if (!linkId) return <Navigate to="/forbidden" replace />;
  if (!isSessionValid(auth)) {
    // A session that existed and ran out (not a first visit) is explained on /auth.
    const state: AuthRouteState | undefined = auth.exp_Date ? { sessionExpired: true } : undefined;
    return <Navigate to={authPath(linkId)} replace state={state} />;
  }
  return <FirstLoadSync linkId={linkId}>{props.children}</FirstLoadSync>;
}

/** Stores whose first guarded page load has been synchronised with the server (one per page load). */
const synced = new WeakSet<object>();

function FirstLoadSync(props: { linkId: string; children: ReactNode }) {
  const store = useStore<RootState>();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const fail = useApiFailure();
  // /patientinfo runs the check itself on every visit.
  const [phase, setPhase] = useState<'checking' | 'done' | { to: string }>(() =>
    synced.has(store) || pathname === StepRoutes.patientInfo ? 'done' : 'checking',
  );
  const [error, setError] = useState<ApiError | null>(null);
  // Arrived where the check sent us: from here on, in-app navigation keeps the store in step.
  const arrived = typeof phase === 'object' && phase.to === pathname;
  // Latch it (state adjusted while rendering): the next in-app navigation (Next) changes the pathname, and the page
  // must not go back to a spinner for ever.
  if (arrived) setPhase('done');

  useEffect(() => {
    synced.add(store);
    if (phase !== 'checking') return;
    const ac = new AbortController();
    continueCheck({ linkId: props.linkId, dispatch: store.dispatch as AppDispatch, signal: ac.signal })
      .then((r) => {
        const to = r.kind === 'continue' ? r.routePath : StepRoutes.patientInfo;
        // The page stays hidden until the navigation lands, so no stale page mounts and navigates on its own.
        setPhase({ to });
        if (to !== pathname) void navigate(to, { replace: true });
      })
      .catch((e: unknown) => {
        if (ac.signal.aborted) return;
        const shown = fail(e);
        if (shown) setError(shown);
      });
    return () => ac.abort();
    // Once per page load.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  if (error) return <ErrorDisplay error={error} />;
  return phase === 'done' || arrived ? props.children : <PageSkeleton />;
}

/** The route a step page may show, or where to send the user instead. */
export function stepGuard(
  steps: { routePath: string; linkStepStatusId: number }[],
  pathname: string,
): { allow: true } | { allow: false; redirect?: string } {
  if (steps.length === 0) return { allow: false };
  const index = steps.findIndex((s) => s.routePath === pathname);
  if (index < 0) return { allow: false };
  const blocking = steps
    .slice(0, index)
    .find((s) => s.routePath !== StepRoutes.patientInfo && s.linkStepStatusId !== StepStatus.Completed);
  return blocking ? { allow: false, redirect: blocking.routePath } : { allow: true };
}

export function RequireSteps(props: { children: ReactNode }) {
  const steps = useAppSelector(selectSteps);
  const { pathname } = useLocation();
  const verdict = stepGuard(steps, pathname);
  if (verdict.allow) return props.children;
  if (verdict.redirect) return <Navigate to={verdict.redirect} replace />;
  return <UnauthorizedPage />;
}
