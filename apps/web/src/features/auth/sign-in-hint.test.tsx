import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { delay } from 'msw';
import { HttpResponse, http, server, setupMsw } from '../../test/msw';
import { LINK_ID, renderApp } from '../../test/render-app';

// The page as the server sends it for /auth?id=<an SMS link> (decision 0185): the method in a meta tag, read when the
// sign-in page's module loads.
vi.hoisted(() => {
  window.history.replaceState(null, '', '/auth?id=AbCdEfGhIjKlMnOpQrStUv12');
  const meta = document.createElement('meta');
  meta.name = 'paylink-sign-in';
  meta.content = 'sms';
  document.head.append(meta);
});

setupMsw();

describe('/auth with the sign-in method named in its HTML (decision 0185)', () => {
  it('shows the SMS heading and instruction with a spinner while the options and the phone load, then the form', async () => {
    server.use(
      http.get('*/api/auth/options', async () => {
        await delay(300);
        return HttpResponse.json({ method: 'sms', captchaSiteKey: null });
      }),
      http.get(`*/api/patients/${LINK_ID}/notoken`, () => HttpResponse.text('(***) ***-4567')),
    );
    await renderApp(`/auth?id=${LINK_ID}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Verify your phone number' })).toBeVisible();
    expect(screen.getByText(/We'll text a 6-digit verification code/)).toBeVisible();
    expect(screen.getByRole('status')).toHaveTextContent('Loading...');
    expect(screen.queryByText('Checking your link...')).toBeNull();
    expect(await screen.findByDisplayValue('(***) ***-4567')).toBeVisible();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
  });

  it('another link than the one the HTML was served for: "Checking your link..." as before', async () => {
    const other = 'ZyXwVuTsRqPoNmLkJiHgFe98';
    server.use(
      http.get('*/api/auth/options', async () => {
        await delay(300);
        return HttpResponse.json({ method: 'email', captchaSiteKey: null });
      }),
    );
    await renderApp(`/auth?id=${other}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Checking your link...' })).toBeVisible();
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in with your email' })).toBeVisible();
  });
});
