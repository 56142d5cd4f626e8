import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http, server, setupMsw } from '../test/msw';
import { LINK_ID, renderApp } from '../test/render-app';
import { setLink } from '../store/link-slice';
import { signedIn } from '../store/auth-slice';
import type { AppDispatch } from '../store/store';

setupMsw();
// Whole pages on a busy machine: room for slow runs, not a timing assertion.
vi.setConfig({ testTimeout: 20_000 });

const endsIn = (ms: number) => (d: AppDispatch) => {
  d(setLink({ link_id: LINK_ID }));
  d(signedIn({ token: 'tok', expiresAt: new Date(Date.now() + ms).toISOString() }));
};

function freshPatientInfo() {
  server.use(
    http.get(`*/api/linksteps/script/${LINK_ID}/check`, () => HttpResponse.json({}, { status: 404 })),
    http.get(`*/api/patients/patientinfo/${LINK_ID}`, () => new HttpResponse(null, { status: 503 })),
  );
}

describe('session expiry (WCAG 2.2.1)', () => {
  it('warns in the last minute and "Stay signed in" extends the session', async () => {
    freshPatientInfo();
    const later = new Date(Date.now() + 3600_000).toISOString();
    let refreshed = 0;
    server.use(
      http.post('*/api/auth/session/refresh', ({ request }) => {
        refreshed++;
        expect(request.headers.get('authorization')).toBe('Bearer tok');
        return HttpResponse.json({ token: 'tok-2', expiresAt: later });
      }),
    );
    const { store } = await renderApp('/patientinfo', { setup: endsIn(45_000) });
    const dialog = await screen.findByRole('dialog', { name: 'Your session is about to end' });
    expect(dialog).toHaveTextContent(/signed out in \d+ seconds/);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Stay signed in' }));
    await waitFor(() => expect(store.getState().auth.exp_Date).toBe(later));
    expect(store.getState().auth.access_token).toBe('tok-2');
    expect(refreshed).toBe(1);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('at the end signs out and goes to /auth for this link', async () => {
    freshPatientInfo();
    server.use(http.get('*/api/auth/options', () => HttpResponse.json({ method: 'email', captchaSiteKey: null })));
    const { router, store } = await renderApp('/patientinfo', { setup: endsIn(1500) });
    await waitFor(() => expect(router.location().pathname).toBe('/auth'), { timeout: 6000 });
    expect(router.location().search).toBe(`?id=${LINK_ID}`);
    expect(store.getState().auth).toEqual({ access_token: '', auth_email: '', exp_Date: '' });
  });

  it.each([
    ['en', 'Your session expired for your security. Sign in again to continue where you left off.'],
    ['es', 'Su sesión caducó por su seguridad. Inicie sesión de nuevo para continuar donde lo dejó.'],
  ] as const)('says why on /auth after the session ran out (%s, issue 16)', async (lng, message) => {
    freshPatientInfo();
    server.use(http.get('*/api/auth/options', () => HttpResponse.json({ method: 'email', captchaSiteKey: null })));
    const { router } = await renderApp('/patientinfo', { setup: endsIn(1500), lng });
    await waitFor(() => expect(router.location().pathname).toBe('/auth'), { timeout: 6000 });
    expect(await screen.findByTestId('session-expired', {}, { timeout: 10_000 })).toHaveTextContent(message);
    expect(screen.getByTestId('session-expired')).toHaveAttribute('role', 'status');
  });

  it('a first visit to /auth says nothing about an expired session', async () => {
    server.use(http.get('*/api/auth/options', () => HttpResponse.json({ method: 'email', captchaSiteKey: null })));
    await renderApp(`/auth?id=${LINK_ID}`);
    await screen.findByLabelText('Email address');
    expect(screen.queryByTestId('session-expired')).not.toBeInTheDocument();
  });
});
