import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import fs from 'node:fs';
import path from 'node:path';
import {
  BOOT_SHELL_ID,
  bootShell,
  bootShellMarkup,
  bootShellScript,
  type BootPage,
  type BootShellConfig,
  type BootTexts,
} from './boot-shell';
import { SIGN_IN_METHOD_META } from '@paylink/shared';
import { LANGUAGES, detectLanguage } from './i18n';
import { PERSIST_STORAGE_KEY } from './store/persist-key';
import { PageSkeleton } from './components/page-skeleton';
import { renderApp } from './test/render-app';
import { setupMsw } from './test/msw';

setupMsw();

/** The frames built from the app's own locale files, as vite.config.ts builds them. */
const textsOf = (common: Record<string, Record<string, string>> & { loading: string }): BootTexts => ({
  patientInfoTitle: common.patientInfo!.title!,
  patientInfoIntro: common.patientInfo!.intro!,
  loading: common.loading,
  phoneTitle: common.auth!.phoneTitle!,
  phoneInstruction: common.auth!.phoneInstruction!,
  emailTitle: common.auth!.emailTitle!,
  emailInstruction: common.auth!.emailInstruction!,
});

function configFromLocales(): BootShellConfig {
  const markup: BootShellConfig['markup'] = { patientinfo: {}, authSms: {}, authEmail: {} };
  for (const lng of LANGUAGES) {
    const common = JSON.parse(
      fs.readFileSync(path.join(__dirname, '..', 'public', 'locales', lng, 'common.json'), 'utf8'),
    );
    const m = bootShellMarkup(textsOf(common));
    for (const page of Object.keys(markup) as BootPage[]) markup[page][lng] = m[page];
  }
  return {
    markup,
    languages: LANGUAGES,
    persistKey: PERSIST_STORAGE_KEY,
    signInMeta: SIGN_IN_METHOD_META,
    id: BOOT_SHELL_ID,
  };
}

const config = configFromLocales();
const es = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'public', 'locales', 'es', 'common.json'), 'utf8'));
const en = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'public', 'locales', 'en', 'common.json'), 'utf8'));
/** What the server writes into /auth's HTML for a link (decision 0185). */
const servedMethod = (method: string) => {
  const meta = document.createElement('meta');
  meta.name = SIGN_IN_METHOD_META;
  meta.content = method;
  document.head.append(meta);
};
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
    document.head.querySelectorAll('meta').forEach((m) => m.remove());
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
    ['sms', en.auth.phoneTitle, en.auth.phoneInstruction],
    ['email', en.auth.emailTitle, en.auth.emailInstruction],
  ])('/auth with the %s method named in the HTML: the heading, the instruction and a spoken Loading...', (m, h, p) => {
    servedMethod(m);
    window.history.replaceState(null, '', '/auth?id=AbCdEfGhIjKlMnOpQrStUv');
    bootShell(config);
    expect(frame()?.nextElementSibling?.id).toBe('root');
    expect(frame()).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(h);
    expect(frame()?.querySelector('.card-panel > p')).toHaveTextContent(p);
    expect(screen.getByRole('status')).toHaveTextContent('Loading...');
  });

  it('/auth in Spanish', () => {
    servedMethod('sms');
    window.history.replaceState(null, '', '/auth?id=AbCdEfGhIjKlMnOpQrStUv&lng=es');
    bootShell(config);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(es.auth.phoneTitle);
    expect(frame()?.querySelector('.card-panel > p')).toHaveTextContent(es.auth.phoneInstruction);
    expect(document.documentElement.lang).toBe('es');
  });

  it.each([
    ['/patientinfo with nothing persisted (not signed in)', '/patientinfo', false, 'sms'],
    ['/auth with no method in the HTML', '/auth?id=AbCdEfGhIjKlMnOpQrStUv', false, null],
    ['/auth with an unknown method in the HTML', '/auth?id=AbCdEfGhIjKlMnOpQrStUv', false, 'fax'],
    ['/auth with a persisted store (maybe signed in)', '/auth?id=AbCdEfGhIjKlMnOpQrStUv', true, 'sms'],
    ['/auth from an e-mailed sign-in link', '/auth?id=AbCdEfGhIjKlMnOpQrStUv&mode=signIn&oobCode=x', false, 'email'],
    ['another page', '/invoicedetail', true, 'sms'],
  ])('%s: no frame', (_, url, persisted, method) => {
    if (persisted) signedInBefore();
    if (method) servedMethod(method);
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
    const withMarkup = { ...config, markup: { ...config.markup, patientinfo: { en: '</script><b>x</b>', es: '' } } };
    const text = bootShellScript(withMarkup);
    expect(text).not.toContain('</script');
    signedInBefore();
    window.history.replaceState(null, '', '/patientinfo');
    new Function(text)();
    expect(document.querySelector('b')).toHaveTextContent('x');
  });

  it('texts are HTML-escaped in the markup', () => {
    const m = bootShellMarkup({ ...textsOf(en), patientInfoTitle: '<i>a</i> & "b"', phoneInstruction: '<b>' });
    expect(m.patientinfo).toContain('&lt;i&gt;a&lt;/i&gt; &amp; &quot;b&quot;');
    expect(m.authSms).toContain('<p>&lt;b&gt;</p>');
  });

  describe("with the server's first screen in the page (decision 0226)", () => {
    /** The server's screen before #root, in the language it guessed. */
    const serveScreen = (lng: string) =>
      document.body.insertAdjacentHTML(
        'afterbegin',
        `<div id="${BOOT_SHELL_ID}" class="app-shell" data-first-screen="${lng}"><main><h1>served ${lng}</h1><form></form></main></div>`,
      );

    it('keeps it when the app will start in its language', () => {
      servedMethod('sms');
      serveScreen('en');
      window.history.replaceState(null, '', '/auth?id=AbCdEfGhIjKlMnOpQrStUv');
      bootShell(config);
      expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('served en');
      expect(document.querySelectorAll(`#${BOOT_SHELL_ID}`)).toHaveLength(1);
    });

    it('another language kept in this browser: the frame in that language instead', () => {
      servedMethod('sms');
      serveScreen('en');
      localStorage.setItem('i18nextLng', 'es');
      window.history.replaceState(null, '', '/auth?id=AbCdEfGhIjKlMnOpQrStUv');
      bootShell(config);
      expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(es.auth.phoneTitle);
      expect(document.querySelectorAll(`#${BOOT_SHELL_ID}`)).toHaveLength(1);
      expect(document.querySelector('form')).toBeNull();
      expect(document.documentElement.lang).toBe('es');
    });

    it('a persisted store (maybe signed in, sent on): removed, no frame', () => {
      servedMethod('sms');
      serveScreen('en');
      signedInBefore();
      window.history.replaceState(null, '', '/auth?id=AbCdEfGhIjKlMnOpQrStUv');
      bootShell(config);
      expect(frame()).toBeNull();
      expect(document.body.innerHTML).toBe('<div id="root"></div>');
    });
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
