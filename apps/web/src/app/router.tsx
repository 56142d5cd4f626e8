/**
 * Routes of spec section 2. Every page is its own lazily loaded chunk; the document step and payment pages are W2's
 * default exports at fixed paths (src/features/documents/*-page.tsx, src/features/payment/payment-authorization-page.tsx).
 * Guards: src/app/guards.tsx. '*' is the 404 page, also where network failures and unexpected exceptions land
 * (navigate('/notfound', { state: { reason } })). A route that throws shows RouteError (chunk failures reload once).
 */
import type { ComponentType } from 'react';
import { Navigate, createBrowserRouter, useLocation, type RouteObject } from 'react-router';
import { RootLayout } from './root-layout';
import { RequireSession, RequireSteps } from './guards';
import { RouteError } from '../features/errors/route-error';
import { PageSkeleton } from '../components/page-skeleton';
import {
  ForbiddenPage,
  LinkCancelledPage,
  LinkExpiredPage,
  NotFoundPage,
  PaymentErrorPage,
  StepsCompletePage,
  UnauthorizedPage,
} from '../features/errors/error-pages';

const page = (load: () => Promise<{ default: ComponentType }>) => async () => ({ Component: (await load()).default });

/** '/' with the link's id goes to sign-in; without one there is nothing to open (403). */
function IndexRedirect() {
  const { search } = useLocation();
  return new URLSearchParams(search).get('id') ? <Navigate to={`/auth${search}`} replace /> : <ForbiddenPage />;
}

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    HydrateFallback: PageSkeleton,
    children: [
      { index: true, element: <IndexRedirect /> },
      { path: '/auth', lazy: page(() => import('../features/auth/auth-page')) },
      {
        element: <RequireSession />,
        children: [
          { path: '/patientinfo', lazy: page(() => import('../features/patient-info/patient-info-page')) },
          {
            element: <RequireSteps />,
            children: [
              { path: '/patientinvoicedetail', lazy: page(() => import('../features/documents/invoice-page')) },
              { path: '/patientiddocs', lazy: page(() => import('../features/documents/patient-id-page')) },
              { path: '/payoriddocs', lazy: page(() => import('../features/documents/payor-id-page')) },
              { path: '/patientcontract', lazy: page(() => import('../features/documents/contract-page')) },
              {
                path: '/paymentauthorization',
                lazy: page(() => import('../features/payment/payment-authorization-page')),
              },
            ],
          },
        ],
      },
      { path: '/confirmation', lazy: page(() => import('../features/confirmation/confirmation-page')) },
      { path: '/linkexpired', element: <LinkExpiredPage /> },
      { path: '/linkcancelled', element: <LinkCancelledPage /> },
      { path: '/stepscomplete', element: <StepsCompletePage /> },
      { path: '/notauthorized', element: <UnauthorizedPage /> },
      { path: '/forbidden', element: <ForbiddenPage /> },
      { path: '/paymenterror', element: <PaymentErrorPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export const createAppRouter = () => createBrowserRouter(routes);
