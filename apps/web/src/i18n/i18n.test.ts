import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import i18next from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { i18nOptions } from './index';
import { localeResources } from '../test/i18n';

/** Detects with the production options (detector defaults) and the real locale files. */
async function detect(): Promise<string | undefined> {
  const i = i18next.createInstance();
  await i.use(LanguageDetector).init({ ...i18nOptions, resources: localeResources() });
  return i.resolvedLanguage;
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
  });
});

/** Every key of every namespace file exists in both languages (spec: Spanish complete). */
describe('translation key parity', () => {
  const root = path.resolve(__dirname, '../../public/locales');
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
