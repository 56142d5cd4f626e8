/**
 * The frame around every route: takes a `jwt_authorization` query parameter as the session token and removes it from the URL
 * (spec section 3), watches the session's expiry, and waits for lazily loaded translation namespaces and page chunks. A new page starts at the top.
 */
import { Suspense, useEffect, type ReactNode } from 'react';
import { ScrollToTop, useLocation, useNavigate } from '../lib/router';
import { useAppDispatch } from '../store/hooks';
import { signedIn } from '../store/auth-slice';
import { jwtExpiry } from '../lib/session';
import { SessionWatch } from '../components/session-watch';
import { PageSkeleton } from '../components/page-skeleton';
import { AppConfigProvider } from '../lib/app-config';

export function RootLayout(props: { children: ReactNode }) {
  const location = useLocation();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();

  useEffect(() => {
    const params = new URLSearchParams(location.search);
    const token = params.get('jwt_authorization');
    if (!token) return;
    const exp = jwtExpiry(token);
    if (exp) dispatch(signedIn({ token, expiresAt: exp }));
    params.delete('jwt_authorization');
    const search = params.toString();
    void navigate({ pathname: location.pathname, search: search ? `?${search}` : '' }, { replace: true });
  }, [location.search, location.pathname, dispatch, navigate]);

  // Pages mount only once the token is taken, so none of them acts as signed out meanwhile.
  if (new URLSearchParams(location.search).has('jwt_authorization')) return <PageSkeleton />;

  return (
    <>
      <Suspense fallback={<PageSkeleton />}>
        <AppConfigProvider>{props.children}</AppConfigProvider>
      </Suspense>
      <SessionWatch />
      <ScrollToTop />
    </>
  );
}
