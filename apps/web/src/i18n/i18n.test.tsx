import fs from 'node:fs';
import path from 'node:path';
import { Suspense } from 'react';
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { I18n, I18nProvider, useTranslation } from './index';

const root = path.resolve(__dirname, '../../public/locales');

/** The server's side of /locales: the real files, 404 for the ones in `missing`; records what was asked. */
function localeServer(missing: string[] = []) {
  const asked: string[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
    const url = String(input);
    asked.push(url);
    const m = /^\/locales\/(\w+)\/(\w+)\.json$/.exec(url);
    const file = m && path.join(root, m[1]!, `${m[2]}.json`);
    if (!file || missing.includes(url) || !fs.existsSync(file)) return new Response('Not Found', { status: 404 });
    return new Response(fs.readFileSync(file), { headers: { 'content-type': 'application/json' } });
  });
  return asked;
}

/** Starts the app's way (detection, cache, first namespace) with the real locale files. */
async function detect(): Promise<string> {
  localeServer();
  const i = new I18n();
  await i.init();
  vi.unstubAllGlobals();
  return i.language;
}

function setUrl(search: string) {
  window.history.replaceState(null, '', `/auth${search}`);
}
function setNavigatorLanguages(langs: string[]) {
  Object.defineProperty(window.navigator, 'languages', { value: langs, configurable: true });
  Object.defineProperty(window.navigator, 'language', { value: langs[0], configurable: true });
}

describe('language detection order (spec section 1): lng query, cookie, localStorage, sessionStorage, navigator, html lang', () => {
  afterEach(() => {
    setUrl('');
    document.cookie = 'i18next=; Max-Age=0; path=/';
    window.localStorage.clear();
    window.sessionStorage.clear();
    document.documentElement.lang = '';
    setNavigatorLanguages(['en-US']);
  });

  it('the query string wins over everything', async () => {
    setUrl('?lng=es');
    document.cookie = 'i18next=en; path=/';
    window.localStorage.setItem('i18nextLng', 'en');
    expect(await detect()).toBe('es');
  });

  it('then the i18next cookie, over local storage', async () => {
    document.cookie = 'i18next=es; path=/';
    window.localStorage.setItem('i18nextLng', 'en');
    expect(await detect()).toBe('es');
  });

  it('then local storage, over session storage', async () => {
    window.localStorage.setItem('i18nextLng', 'es');
    window.sessionStorage.setItem('i18nextLng', 'en');
    expect(await detect()).toBe('es');
  });

  it('then session storage, over the browser language', async () => {
    window.sessionStorage.setItem('i18nextLng', 'es');
    setNavigatorLanguages(['en-US']);
    expect(await detect()).toBe('es');
  });

  it('then the browser language (es-MX → es), over the html lang', async () => {
    setNavigatorLanguages(['es-MX', 'es']);
    document.documentElement.lang = 'en';
    expect(await detect()).toBe('es');
  });

  it('falls back to English for a language we do not have, and caches the choice in local storage', async () => {
    setNavigatorLanguages(['de-DE']);
    expect(await detect()).toBe('en');
    setUrl('?lng=es');
    expect(await detect()).toBe('es');
    expect(window.localStorage.getItem('i18nextLng')).toBe('es');
    // …and in the i18next cookie, so the server can preload the right first namespace next time.
    expect(document.cookie).toContain('i18next=es');
    expect(document.documentElement.lang).toBe('es');
  });

  it('takes a language code in any case or region form, and ignores an empty lng', async () => {
    setUrl('?lng=');
    setNavigatorLanguages(['ES_us']);
    expect(await detect()).toBe('es');
  });
});

function Greeting(props: { ns?: string; k: string }) {
  const { t } = useTranslation(props.ns);
  return <p data-testid="text">{t(props.k)}</p>;
}

describe('translations', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    document.cookie = 'i18next=; Max-Age=0; path=/';
    window.localStorage.clear();
    document.documentElement.lang = '';
  });

  it('interpolates {{name}} without HTML escaping, picks plurals by count, and takes defaultValue for unknown keys', async () => {
    localeServer();
    const i = new I18n({ lng: 'es' });
    await i.loadNamespace('common');
    const t = i.getFixedT('common');
    expect(t('progress.names./nowhere', { defaultValue: '{{a}} ({{b}})', a: 'Tom & <Jerry>', b: 'x' })).toBe(
      'Tom & <Jerry> (x)',
    );
    expect(t('session.warnBody', { count: 1 })).toBe('Por su seguridad, cerraremos su sesión en 1 segundo.');
    expect(t('session.warnBody', { count: 5 })).toBe('Por su seguridad, cerraremos su sesión en 5 segundos.');
    expect(t('progress.names./nowhere', { defaultValue: 'Paso {{n}}', n: 3 })).toBe('Paso 3');
    expect(t('no.such.key')).toBe('no.such.key');
  });

  it('falls back to English for a language file that is missing, and for a key Spanish lacks', async () => {
    const asked = localeServer(['/locales/es/steps.json']);
    const i = new I18n({ lng: 'es' });
    await i.loadNamespace('steps');
    const t = i.getFixedT('steps');
    expect(t('patientId.title')).toBe('patientId.title'); // English is fetched on the first miss…
    await i.loadNamespace('steps', 'en');
    expect(t('patientId.title')).toBe('Patient Identification Documents'); // …and used from then on
    expect(asked).toEqual(['/locales/es/steps.json', '/locales/en/steps.json']);
  });

  it('loads a namespace when a page asks for it (Suspense meanwhile), once, and switches language with html lang', async () => {
    const asked = localeServer();
    window.history.replaceState(null, '', '/auth?lng=en');
    const i = new I18n();
    await i.init();
    window.history.replaceState(null, '', '/auth');
    render(
      <I18nProvider i18n={i}>
        <Suspense fallback={<p>waiting</p>}>
          <Greeting ns="steps" k="patientId.title" />
        </Suspense>
      </I18nProvider>,
    );
    expect(screen.getByText('waiting')).toBeInTheDocument();
    expect(await screen.findByTestId('text')).toHaveTextContent('Patient Identification Documents');
    await act(() => i.changeLanguage('es'));
    expect(screen.getByTestId('text')).toHaveTextContent('Documentos de identificación del paciente');
    expect(document.documentElement.lang).toBe('es');
    expect(window.localStorage.getItem('i18nextLng')).toBe('es');
    expect(asked).toEqual([
      '/locales/en/common.json',
      '/locales/en/steps.json',
      '/locales/es/common.json',
      '/locales/es/steps.json',
    ]);
  });
});

/** Every key of every namespace file exists in both languages (spec: Spanish complete). */
describe('translation key parity', () => {
  const flatten = (o: unknown, prefix = ''): string[] =>
    o && typeof o === 'object'
      ? Object.entries(o as Record<string, unknown>).flatMap(([k, v]) => flatten(v, prefix ? `${prefix}.${k}` : k))
      : [prefix];
  const languages = fs.readdirSync(root).filter((d) => fs.statSync(path.join(root, d)).isDirectory());
  const namespaces = [...new Set(languages.flatMap((l) => fs.readdirSync(path.join(root, l))))].filter((f) =>
    f.endsWith('.json'),
  );

  it('has English and Spanish, with common, steps and payment', () => {
    expect(languages.sort()).toEqual(['en', 'es']);
    expect(namespaces).toEqual(expect.arrayContaining(['common.json', 'steps.json', 'payment.json']));
  });

  it.each(namespaces)('%s has the same keys in every language, none empty', (ns) => {
    const keys = Object.fromEntries(
      languages.map((l) => {
        const file = path.join(root, l, ns);
        expect(fs.existsSync(file), `${l}/${ns} is missing`).toBe(true);
        const data = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
        for (const k of flatten(data)) {
          const value = k.split('.').reduce<unknown>((o, p) => (o as Record<string, unknown>)[p], data);
          expect(typeof value === 'string' && value.trim() !== '', `${l}/${ns}: ${k} is empty`).toBe(true);
        }
        return [l, new Set(flatten(data))];
      }),
    );
    for (const a of languages) {
      for (const b of languages) {
        const missing = [...keys[a]!].filter((k) => !keys[b]!.has(k));
        expect(missing, `keys in ${a}/${ns} missing from ${b}/${ns}`).toEqual([]);
      }
    }
  });
});
