/**
 * Routes of spec section 2 (wouter, decision 0173). Every page is its own lazily loaded chunk (React.lazy; the root
 * layout's Suspense shows PageSkeleton meanwhile); the document step and payment pages are W2's default exports at
 * fixed paths (src/features/documents/*-page.tsx, src/features/payment/payment-authorization-page.tsx).
 * Guards: src/app/guards.tsx. The last route is the 404 page, also where network failures and unexpected exceptions
 * land (navigate('/notfound', { state: { reason } })). A route that throws shows RouteError (chunk failures reload
 * once).
 */
import { lazy, type ComponentType } from 'react';
import { Navigate, Route, Switch, useLocation } from '../lib/router';
import { RootLayout } from './root-layout';
import { RequireSession, RequireSteps } from './guards';
import { RouteErrorBoundary } from '../features/errors/route-error';
import {
  ForbiddenPage,
  LinkCancelledPage,
  LinkExpiredPage,
  NotFoundPage,
  PaymentErrorPage,
  StepsCompletePage,
  UnauthorizedPage,
} from '../features/errors/error-pages';

type Module = { default: ComponentType };
/**
 * A lazily loaded page whose chunk can also be fetched ahead of rendering (preloadPage), one request for both. When
 * Vite's vite:preloadError was handled (src/lib/chunk-reload.ts: the page is reloading), the import resolves to
 * nothing: the skeleton stays until the reload.
 */
function page(load: () => Promise<Module | undefined>) {
  let loading: Promise<Module> | undefined;
  const preload = () => (loading ??= load().then((m) => m ?? new Promise<Module>(() => undefined)));
  return Object.assign(lazy(preload), { preload });
}

const AuthPage = page(() => import('../features/auth/auth-page'));
const PatientInfoPage = page(() => import('../features/patient-info/patient-info-page'));
const ConfirmationPage = page(() => import('../features/confirmation/confirmation-page'));
/** Issue 28: a plan's new card (decision 0211); behind the session guard only (the link's steps are done). */
const UpdateCardPage = page(() => import('../features/payment/update-card-page'));
/** Step pages: behind the session guard and the step guard. */
const stepPages: [path: string, Page: ReturnType<typeof page>][] = [
  ['/patientinvoicedetail', page(() => import('../features/documents/invoice-page'))],
  ['/patientiddocs', page(() => import('../features/documents/patient-id-page'))],
  ['/payoriddocs', page(() => import('../features/documents/payor-id-page'))],
  ['/patientcontract', page(() => import('../features/documents/contract-page'))],
  ['/paymentauthorization', page(() => import('../features/payment/payment-authorization-page'))],
];

/** Paths are matched as wouter (regexparam) matches them: any case, an optional trailing slash. */
const sessionPaths = new RegExp(`^(?:/patientinfo|${stepPages.map(([p]) => p).join('|')})/?$`, 'i');

/**
 * Starts fetching the chunk of the page at `pathname` (main.tsx, before the store and the config are ready), so the
 * first page does not wait for them to ask for its code.
 */
export function preloadPage(pathname: string) {
  const path = pathname.toLowerCase().replace(/(.)\/$/, '$1');
  const found =
    path === '/' || path === '/auth'
      ? AuthPage
      : path === '/patientinfo'
        ? PatientInfoPage
        : path === '/confirmation'
          ? ConfirmationPage
          : path === '/updatecard'
            ? UpdateCardPage
            : stepPages.find(([p]) => p === path)?.[1];
  void found?.preload().catch(() => undefined); // a failure shows when the page renders
}

/** '/' with the link's id goes to sign-in; without one there is nothing to open (403). */
function IndexRedirect() {
  const { search } = useLocation();
  return new URLSearchParams(search).get('id') ? <Navigate to={`/auth${search}`} replace /> : <ForbiddenPage />;
}

export function AppRoutes() {
  return (
    <RouteErrorBoundary>
      <RootLayout>
        <Switch>
          <Route path="/">
            <IndexRedirect />
          </Route>
          <Route path="/auth">
            <AuthPage />
          </Route>
          <Route path={sessionPaths}>
            <RequireSession>
              <Switch>
                <Route path="/patientinfo">
                  <PatientInfoPage />
                </Route>
                <Route>
                  <RequireSteps>
                    <Switch>
                      {stepPages.map(([path, Page]) => (
                        <Route key={path} path={path}>
                          <Page />
                        </Route>
                      ))}
                    </Switch>
                  </RequireSteps>
                </Route>
              </Switch>
            </RequireSession>
          </Route>
          <Route path="/updatecard">
            <UpdateCardPage />
          </Route>
          <Route path="/confirmation">
            <ConfirmationPage />
          </Route>
          <Route path="/linkexpired">
            <LinkExpiredPage />
          </Route>
          <Route path="/linkcancelled">
            <LinkCancelledPage />
          </Route>
          <Route path="/stepscomplete">
            <StepsCompletePage />
          </Route>
          <Route path="/notauthorized">
            <UnauthorizedPage />
          </Route>
          <Route path="/forbidden">
            <ForbiddenPage />
          </Route>
          <Route path="/paymenterror">
            <PaymentErrorPage />
          </Route>
          <Route>
            <NotFoundPage />
          </Route>
        </Switch>
      </RootLayout>
    </RouteErrorBoundary>
  );
}
