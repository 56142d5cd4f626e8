import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http, server, setupMsw } from '../test/msw';
import { LINK_ID, renderApp } from '../test/render-app';
import { setLink } from '../store/link-slice';
import { signedIn } from '../store/auth-slice';
import type { AppDispatch } from '../store/store';

setupMsw();

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
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'), { timeout: 6000 });
    expect(router.state.location.search).toBe(`?id=${LINK_ID}`);
    expect(store.getState().auth).toEqual({ access_token: '', auth_email: '', exp_Date: '' });
  });
});
