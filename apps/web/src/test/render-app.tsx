/** Renders the real app routes in memory with a fresh store, real i18n resources and the given start URL. */
import { act, render } from '@testing-library/react';
import { Provider } from 'react-redux';
import { I18nProvider } from '../i18n';
import { makeStore, type AppDispatch } from '../store/store';
import { AppRoutes } from '../app/router';
import { createMemoryHistory, RouterProvider } from '../lib/router';
import { loadAppConfig } from '../lib/app-config';
import { setAccessTokenGetter } from '../lib/api-client';
import { createTestI18n } from './i18n';
import { setLink } from '../store/link-slice';
import { signedIn } from '../store/auth-slice';

export const LINK_ID = 'AbCdEfGhIjKlMnOpQrStUv12';

export async function renderApp(
  path: string,
  opts: { setup?: (dispatch: AppDispatch) => void; lng?: string; state?: unknown } = {},
) {
  window.localStorage.clear();
  const { store, persistor } = makeStore({ passphrase: 'test-passphrase' });
  await new Promise<void>((resolve) => {
    if (persistor.getState().bootstrapped) return resolve();
    const unsubscribe = persistor.subscribe(() => {
      if (persistor.getState().bootstrapped) {
        unsubscribe();
        resolve();
      }
    });
  });
  setAccessTokenGetter(() => store.getState().auth.access_token || undefined);
  opts.setup?.(store.dispatch);
  const i18n = await createTestI18n(opts.lng ?? 'en');
  await loadAppConfig();
  // The in-memory history: router.location() is where the app is, router.back() is the browser's back button.
  const router = createMemoryHistory({ path, state: opts.state });
  const view = await act(async () =>
    render(
      <Provider store={store}>
        <I18nProvider i18n={i18n}>
          <RouterProvider history={router}>
            <AppRoutes />
          </RouterProvider>
        </I18nProvider>
      </Provider>,
    ),
  );
  return { ...view, store, router, i18n };
}

/** A signed-in patient of LINK_ID whose session ends in an hour. */
export function signedInSetup(dispatch: AppDispatch) {
  dispatch(setLink({ link_id: LINK_ID }));
  dispatch(signedIn({ token: 'test-token', expiresAt: new Date(Date.now() + 3600_000).toISOString() }));
}
