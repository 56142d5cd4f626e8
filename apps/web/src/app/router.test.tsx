import { describe, expect, it } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { I18nProvider } from '../i18n';
import { AppRoutes } from './router';
import { createMemoryHistory, RouterProvider } from '../lib/router';
import { makeStore } from '../store/store';
import { createTestI18n } from '../test/i18n';
import { HttpResponse, http, server, setupMsw, testConfig } from '../test/msw';
import { LINK_ID, renderApp } from '../test/render-app';

setupMsw();

describe('routes (spec section 2)', () => {
  it('a route that fails while rendering shows the error screen; the next navigation renders the routes again', async () => {
    // The server cannot be reached (the app keeps the config once loaded: this test comes first in its file).
    let reachable = false;
    server.use(http.get('*/api/config', () => (reachable ? HttpResponse.json(testConfig) : HttpResponse.error())));
    const { store } = makeStore({ passphrase: 'k' });
    const i18n = await createTestI18n('en');
    const history = createMemoryHistory('/forbidden');
    // Awaited, so React retries what suspended (as renderApp does).
    await act(async () =>
      render(
        <Provider store={store}>
          <I18nProvider i18n={i18n}>
            <RouterProvider history={history}>
              <AppRoutes />
            </RouterProvider>
          </I18nProvider>
        </Provider>,
      ),
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Not Found' })).toBeInTheDocument();
    expect(screen.getByText(/We couldn't reach our server/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();

    reachable = true;
    await act(async () => history.push('/linkexpired'));
    expect(
      await screen.findByRole('heading', {
        level: 1,
        name: 'The link has expired. Please contact your sales coordinator for a new link.',
      }),
    ).toBeInTheDocument();
  });

  it('/ with a link id goes to sign-in, keeping the query', async () => {
    server.use(
      http.get('*/api/auth/options', () => HttpResponse.json({ method: 'sms', captchaSiteKey: null })),
      http.get(`*/api/patients/${LINK_ID}/notoken`, () => HttpResponse.text('(***) ***-4567')),
    );
    const { router } = await renderApp(`/?id=${LINK_ID}&lng=en`);
    expect(await screen.findByRole('button', { name: 'Get Verification code' })).toBeInTheDocument();
    expect(router.location().pathname).toBe('/auth');
    expect(router.location().search).toBe(`?id=${LINK_ID}&lng=en`);
  });
});
