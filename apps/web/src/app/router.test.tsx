import { describe, expect, it } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { I18nProvider } from '../i18n';
import { createMemoryHistory, RouterProvider, useLocation } from '../lib/router';
import { NetworkError } from '../lib/api-client';
import { RouteErrorBoundary } from '../features/errors/route-error';
import { createTestI18n } from '../test/i18n';
import { HttpResponse, http, server, setupMsw } from '../test/msw';
import { LINK_ID, renderApp } from '../test/render-app';

setupMsw();

describe('routes (spec section 2)', () => {
  it.each([
    [new NetworkError('The server could not be reached.'), 'Not Found', /We couldn't reach our server/, 'Try again'],
    [new Error('a bug'), 'Unexpected Application Error!', /Something went wrong on this page/, 'Reload the page'],
  ])(
    'a route that throws while rendering (%s) shows the error screen until the next navigation',
    async (error, title, hint, button) => {
      function Page() {
        if (useLocation().pathname === '/broken') throw error;
        return <p>Another page</p>;
      }
      const history = createMemoryHistory('/broken');
      render(
        <I18nProvider i18n={await createTestI18n('en')}>
          <RouterProvider history={history}>
            <RouteErrorBoundary>
              <Page />
            </RouteErrorBoundary>
          </RouterProvider>
        </I18nProvider>,
      );
      expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
      expect(screen.getByText(hint)).toBeInTheDocument();
      expect(screen.getByRole('button', { name: button })).toBeInTheDocument();

      act(() => history.push('/elsewhere'));
      expect(await screen.findByText('Another page')).toBeInTheDocument();
    },
  );

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
