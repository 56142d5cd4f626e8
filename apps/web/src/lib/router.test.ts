import { afterEach, describe, expect, it } from 'vitest';
import { createBrowserHistory } from './router';

/** jsdom's history: back() and in-page links fire popstate asynchronously, as browsers do. */
const popped = () =>
  new Promise<void>((resolve) => window.addEventListener('popstate', () => resolve(), { once: true }));
const url = () => window.location.pathname + window.location.search + window.location.hash;

describe('browser history (decision 0173)', () => {
  afterEach(() => window.history.replaceState(null, '', '/'));

  it('navigations carry their state; back returns to the previous entry', async () => {
    window.history.replaceState(null, '', '/auth?id=x');
    const history = createBrowserHistory();
    history.replace('/patientinfo', { from: 'auth' });
    history.push('/patientinvoicedetail');
    expect(history.location()).toMatchObject({ pathname: '/patientinvoicedetail', search: '', state: null });
    const back = popped();
    history.back();
    await back;
    expect(history.location()).toMatchObject({ pathname: '/patientinfo', state: { from: 'auth' } });
    expect(url()).toBe('/patientinfo');
  });

  it('while blocked, back leaves the URL and the location as they are; an in-page link still works', async () => {
    window.history.replaceState(null, '', '/patientinfo');
    const history = createBrowserHistory();
    history.push('/patientinfo', { neutralBack: true });
    const shown = history.location();
    const unblock = history.block();
    for (let i = 0; i < 2; i++) {
      const back = popped();
      history.back();
      await back;
      expect(history.location()).toBe(shown);
      expect(url()).toBe('/patientinfo');
      expect(window.history.state).toMatchObject({ usr: { neutralBack: true } });
    }
    const link = popped();
    window.location.hash = '#main';
    await link;
    expect(history.location()).toMatchObject({ pathname: '/patientinfo', hash: '#main' });
    unblock();
  });
});
