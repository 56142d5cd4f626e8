/**
 * Route guards (spec section 2 and 4; decisions 0021):
 * - RequireSession: no link id → /forbidden; no or expired session → /auth?id=<link id>.
 * - RequireSteps: no step list → the unauthorised page titled by error401Title; a step route that is not in this
 *   link's list → the same page; a step whose earlier steps are not complete → the first incomplete one.
 */
import { Navigate, Outlet, useLocation } from 'react-router';
import { StepStatus, StepRoutes } from '@paylink/shared';
import { useAppSelector } from './hooks';
import { isSessionValid } from '../store/auth-slice';
import { selectSteps } from '../store/step-production-slice';
import { authPath } from '../lib/session';
import { UnauthorizedPage } from '../features/errors/error-pages';

export function RequireSession() {
  const auth = useAppSelector((s) => s.auth);
  const linkId = useAppSelector((s) => s.link.link_id);
  if (!linkId) return <Navigate to="/forbidden" replace />;
  if (!isSessionValid(auth)) return <Navigate to={authPath(linkId)} replace />;
  return <Outlet />;
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

export function RequireSteps() {
  const steps = useAppSelector(selectSteps);
  const { pathname } = useLocation();
  const verdict = stepGuard(steps, pathname);
  if (verdict.allow) return <Outlet />;
  if (verdict.redirect) return <Navigate to={verdict.redirect} replace />;
  return <UnauthorizedPage />;
}
