import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import fs from 'node:fs';
import path from 'node:path';
import { BOOT_SHELL_ID, bootShell, bootShellMarkup, bootShellScript, type BootShellConfig } from './boot-shell';
import { LANGUAGES, detectLanguage } from './i18n';
import { PERSIST_STORAGE_KEY } from './store/persist-key';
import { PageSkeleton } from './components/page-skeleton';
import { renderApp } from './test/render-app';
import { setupMsw } from './test/msw';

setupMsw();

/** The frames built from the app's own locale files, as vite.config.ts builds them. */
function configFromLocales(): BootShellConfig {
  const markup: BootShellConfig['markup'] = { patientinfo: {} };
  for (const lng of LANGUAGES) {
    const common = JSON.parse(
      fs.readFileSync(path.join(__dirname, '..', 'public', 'locales', lng, 'common.json'), 'utf8'),
    );
    const m = bootShellMarkup({
      patientInfoTitle: common.patientInfo.title,
      patientInfoIntro: common.patientInfo.intro,
      loading: common.loading,
    });
    markup.patientinfo[lng] = m.patientinfo;
  }
  return { markup, languages: LANGUAGES, persistKey: PERSIST_STORAGE_KEY };
}

const config = configFromLocales();
const es = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'public', 'locales', 'es', 'common.json'), 'utf8'));
/** What a signed-in patient's browser holds: the persisted store. */
const signedInBefore = () => localStorage.setItem(PERSIST_STORAGE_KEY, '{}');
const frame = () => document.getElementById(BOOT_SHELL_ID);
const setLanguages = (langs: string[]) =>
  Object.defineProperty(window.navigator, 'languages', { value: langs, configurable: true });

describe("index.html's frame of the first screen (decision 0184)", () => {
  beforeEach(() => {
    document.body.innerHTML = '<div id="root"></div>';
    document.documentElement.setAttribute('lang', 'en');
    localStorage.clear();
    sessionStorage.clear();
    document.cookie = 'i18next=; Max-Age=0; path=/';
    setLanguages(['en-US', 'en']);
  });
  afterEach(() => {
    document.body.innerHTML = '';
    window.history.replaceState(null, '', '/');
  });

  it('/patientinfo for a browser with persisted state: the page frame, heading, intro and a spoken Loading...', () => {
    signedInBefore();
    window.history.replaceState(null, '', '/patientinfo');
    bootShell(config);
    expect(frame()?.nextElementSibling?.id).toBe('root');
    expect(frame()).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Patient information');
    expect(frame()?.querySelector('.lead-hint')).toHaveTextContent(
      'Please check your details and choose your payment.',
    );
    expect(screen.getByRole('status')).toHaveTextContent('Loading...');
  });

  it.each([
    ['/patientinfo with nothing persisted (not signed in)', '/patientinfo'],
    ['the sign-in page', '/auth?id=AbCdEfGhIjKlMnOpQrStUv'],
    ['another page', '/invoicedetail'],
  ])('%s: no frame', (_, url) => {
    if (url !== '/patientinfo') signedInBefore();
    window.history.replaceState(null, '', url);
    bootShell(config);
    expect(frame()).toBeNull();
    expect(document.body.innerHTML).toBe('<div id="root"></div>');
  });

  it.each([
    ['the lng query', '/patientinfo?lng=es', () => undefined],
    ['the i18next cookie', '/patientinfo', () => (document.cookie = 'i18next=es; path=/')],
    ['local storage', '/patientinfo', () => localStorage.setItem('i18nextLng', 'es')],
    ['session storage', '/patientinfo', () => sessionStorage.setItem('i18nextLng', 'es')],
    ['the browser languages', '/patientinfo', () => setLanguages(['es-MX', 'en'])],
  ])('Spanish from %s, as the app detects it; html lang follows', (_, url, arrange) => {
    signedInBefore();
    window.history.replaceState(null, '', url);
    arrange();
    expect(detectLanguage()).toBe('es');
    bootShell(config);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Información del paciente');
    expect(frame()?.querySelector('.lead-hint')).toHaveTextContent(es.patientInfo.intro);
    expect(screen.getByRole('status')).toHaveTextContent('Cargando...');
    expect(document.documentElement.lang).toBe('es');
  });

  it('an unsupported browser language: English, as the app', () => {
    setLanguages(['fr-FR', 'de']);
    signedInBefore();
    window.history.replaceState(null, '', '/patientinfo');
    expect(detectLanguage()).toBe('en');
    bootShell(config);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Patient information');
  });

  it('the inline script is the same function, runs on its own and cannot close its script element', () => {
    const withMarkup = { ...config, markup: { patientinfo: { en: '</script><b>x</b>', es: '' } } };
    const text = bootShellScript(withMarkup);
    expect(text).not.toContain('</script');
    signedInBefore();
    window.history.replaceState(null, '', '/patientinfo');
    new Function(text)();
    expect(document.querySelector('b')).toHaveTextContent('x');
  });

  it('texts are HTML-escaped in the markup', () => {
    const m = bootShellMarkup({ patientInfoTitle: '<i>a</i> & "b"', patientInfoIntro: 'i', loading: 'l' });
    expect(m.patientinfo).toContain('&lt;i&gt;a&lt;/i&gt; &amp; &quot;b&quot;');
  });

  it("React's loading skeleton stays empty while the frame is there; the first page frame removes it", async () => {
    signedInBefore();
    window.history.replaceState(null, '', '/patientinfo');
    bootShell(config);
    const { container, unmount } = render(<PageSkeleton />);
    expect(container).toBeEmptyDOMElement();
    unmount();
    // A page (through PageLayout) replaces the frame: one h1 on the page, React's.
    await renderApp('/notfound');
    expect(await screen.findByRole('heading', { level: 1 })).not.toHaveTextContent('Patient information');
    expect(frame()).toBeNull();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
  });
});
