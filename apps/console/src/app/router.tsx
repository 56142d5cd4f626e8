import { createBrowserRouter, type RouteObject } from 'react-router';
import { SignInPage } from '../features/auth/sign-in-page';
import { ConsoleLayout } from './console-layout';
import { RouteError } from './route-error';
import { NotFoundPage } from './not-found-page';

/** Every screen but sign-in is its own lazy chunk. */
const routes: RouteObject[] = [
  { path: '/sign-in', element: <SignInPage />, errorElement: <RouteError /> },
  {
    path: '/forgot-password',
    errorElement: <RouteError />,
    lazy: () => import('../features/auth/forgot-password-page').then((m) => ({ Component: m.ForgotPasswordPage })),
  },
  {
    path: '/reset-password',
    errorElement: <RouteError />,
    lazy: () => import('../features/auth/forgot-password-page').then((m) => ({ Component: m.ResetPasswordPage })),
  },
  {
    path: '/change-password',
    errorElement: <RouteError />,
    lazy: () => import('../features/auth/change-password-page').then((m) => ({ Component: m.ChangePasswordPage })),
  },
  {
    path: '/',
    element: <ConsoleLayout />,
    errorElement: <RouteError />,
    children: [
      { index: true, lazy: () => import('../features/links/board-page').then((m) => ({ Component: m.BoardPage })) },
      {
        path: 'links/new',
        lazy: () => import('../features/links/new-link-page').then((m) => ({ Component: m.NewLinkPage })),
      },
      {
        path: 'links/:id',
        // The app composes features: the link page gets the money feature's card.
        lazy: async () => {
          const [{ LinkDetailPage }, { LinkMoneyCard }] = await Promise.all([
            import('../features/links/link-detail-page'),
            import('../features/money/link-money-card'),
          ]);
          return { Component: () => <LinkDetailPage MoneyCard={LinkMoneyCard} /> };
        },
      },
      {
        path: 'payments',
        lazy: async () => {
          const [{ PaymentsPage }, { PaymentsMoneyPanel }, { PaymentRowMoney }] = await Promise.all([
            import('../features/payments/payments-page'),
            import('../features/money/payments-money-panel'),
            import('../features/money/payment-row-money'),
          ]);
          return { Component: () => <PaymentsPage MoneyPanel={PaymentsMoneyPanel} RowMoney={PaymentRowMoney} /> };
        },
      },
      {
        path: 'plans/upcoming',
        lazy: () => import('../features/plans/upcoming-page').then((m) => ({ Component: m.UpcomingChargesPage })),
      },
      {
        path: 'funnel',
        lazy: () => import('../features/funnel/funnel-page').then((m) => ({ Component: m.FunnelPage })),
      },
      {
        path: 'opt-outs',
        lazy: () => import('../features/messaging/opt-outs-page').then((m) => ({ Component: m.OptOutsPage })),
      },
      { path: 'staff', lazy: () => import('../features/staff/staff-page').then((m) => ({ Component: m.StaffPage })) },
      {
        path: 'settings',
        lazy: () => import('../features/settings/settings-page').then((m) => ({ Component: m.SettingsPage })),
      },
      {
        path: 'webhooks',
        lazy: () => import('../features/money/webhooks-page').then((m) => ({ Component: m.WebhooksPage })),
      },
      {
        path: 'compliance',
        lazy: () => import('../features/compliance/compliance-page').then((m) => ({ Component: m.CompliancePage })),
      },
      {
        path: 'security',
        lazy: () => import('../features/auth/security-page').then((m) => ({ Component: m.SecurityPage })),
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export function createConsoleRouter() {
  return createBrowserRouter(routes, { basename: '/console' });
}
