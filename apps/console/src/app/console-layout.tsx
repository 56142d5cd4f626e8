import { Suspense, useCallback } from 'react';
import Nav from 'react-bootstrap/Nav';
import Navbar from 'react-bootstrap/Navbar';
import NavDropdown from 'react-bootstrap/NavDropdown';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Navigate, NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { LanguageSwitch } from '../shared/components/language-switch';
import { ErrorAlert, Loading } from '../shared/components/query-state';
import { can, type Permission } from '../shared/session/permissions';
import { fetchSession, SESSION_QUERY_KEY, signOut } from '../shared/session/session-api';
import { useSession } from '../shared/session/use-session';
import { IdleTimeout } from './idle-timeout';

const NAV: { to: string; key: string; permission: Permission; end?: boolean }[] = [
  { to: '/', key: 'nav.links', permission: 'links.view', end: true },
  { to: '/payments', key: 'nav.payments', permission: 'payments.view' },
  { to: '/plans/upcoming', key: 'plans.nav', permission: 'payments.view' },
  { to: '/funnel', key: 'nav.funnel', permission: 'funnel.view' },
  { to: '/opt-outs', key: 'nav.optOuts', permission: 'links.view' },
  { to: '/staff', key: 'nav.staff', permission: 'staff.manage' },
  { to: '/settings', key: 'nav.settings', permission: 'settings.manage' },
  { to: '/webhooks', key: 'money.webhooks.nav', permission: 'webhooks.manage' },
  { to: '/compliance', key: 'nav.compliance', permission: 'compliance.view' },
];

/** The signed-in frame: navigation (what the role may open), account menu, idle time-out, the page. */
export function ConsoleLayout() {
  const { t } = useTranslation();
  const session = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  const end = useCallback(
    async (reason: 'idle' | null) => {
      await signOut().catch(() => undefined);
      queryClient.clear();
      queryClient.setQueryData(SESSION_QUERY_KEY, null);
      void navigate(reason ? `/sign-in?reason=${reason}` : '/sign-in', { replace: true });
    },
    [navigate, queryClient],
  );
  const onTimeout = useCallback(() => void end('idle'), [end]);
  const onStay = useCallback(
    () => void queryClient.fetchQuery({ queryKey: SESSION_QUERY_KEY, queryFn: fetchSession, staleTime: 0 }),
    [queryClient],
  );

  if (session.isPending) return <Loading />;
  if (session.error)
    return (
      <main className="container py-4">
        <ErrorAlert error={session.error} onRetry={() => void session.refetch()} />
      </main>
    );
  if (!session.data) {
    const next = location.pathname + location.search;
    return <Navigate to={next === '/' ? '/sign-in' : `/sign-in?next=${encodeURIComponent(next)}`} replace />;
  }
  const { user } = session.data;
  if (session.data.passwordChangeRequired) return <Navigate to="/change-password" replace />;
  if (session.data.twoFactor.enrolmentRequired && location.pathname !== '/security') {
    return <Navigate to="/security" replace />;
  }

  return (
    <div className="console-shell">
      <a className="skip-link" href="#main">
        {t('layout.skipToContent')}
      </a>
      <Navbar expand="lg" variant="dark" className="console-navbar" collapseOnSelect>
        <div className="container-xl">
          <Navbar.Brand as={NavLink} to="/" className="fw-semibold">
            {t('layout.brand')}
          </Navbar.Brand>
          <Navbar.Toggle aria-controls="console-nav" label={t('layout.menu')} />
          <Navbar.Collapse id="console-nav">
            <Nav as="ul" className="me-auto" aria-label={t('layout.mainNav')}>
              {NAV.filter((n) => can(user.role, n.permission)).map((n) => (
                <Nav.Item as="li" key={n.to}>
                  <Nav.Link as={NavLink} to={n.to} end={n.end} eventKey={n.to}>
                    {t(n.key)}
                  </Nav.Link>
                </Nav.Item>
              ))}
            </Nav>
            <div className="d-flex flex-wrap align-items-center gap-2 py-2 py-lg-0">
              <LanguageSwitch />
              <Nav>
                <NavDropdown title={user.name || user.email} id="account-menu" align="end">
                  <NavDropdown.Header>
                    {user.email} · {t(`roles.${user.role}`)}
                  </NavDropdown.Header>
                  <NavDropdown.Item as={NavLink} to="/security">
                    {t('nav.security')}
                  </NavDropdown.Item>
                  <NavDropdown.Divider />
                  <NavDropdown.Item as="button" onClick={() => void end(null)}>
                    {t('layout.signOut')}
                  </NavDropdown.Item>
                </NavDropdown>
              </Nav>
            </div>
          </Navbar.Collapse>
        </div>
      </Navbar>
      <main id="main" className="container-xl py-3 py-md-4">
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </main>
      <IdleTimeout
        idleMinutes={session.data.idleTimeoutMinutes}
        onActive={onStay}
        onStay={onStay}
        onTimeout={onTimeout}
      />
    </div>
  );
}
