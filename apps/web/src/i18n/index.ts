/**
 * i18n (spec section 1), our own small module instead of i18next (decision 0174): translation files from
 * /locales/{lng}/{ns}.json, English and Spanish, English as the fallback.
 * - Language detection in i18next's browser-detector order: query string `lng`, cookie `i18next`, localStorage
 *   `i18nextLng`, sessionStorage `i18nextLng`, the browser's languages, the html lang tag; the first supported one
 *   wins (`es-MX` → `es`), else English. The choice is cached in localStorage (`i18nextLng`) and in the `i18next`
 *   cookie, so the server's `Link: rel=preload` for the first namespace (apps/server/src/http/static-assets.ts)
 *   guesses the language a returning patient picked too; `fetch` here reuses that preload.
 * - Namespaces: `common` (default; shell, auth, patient info, confirmation, errors), `steps` and `payment` (document
 *   and payment pages): `useTranslation('steps')` loads its namespace on demand and suspends until it is there.
 * - `t(key, options)`: nested keys (`a.b`), `{{name}}` interpolation (not HTML-escaped: React escapes), plurals with
 *   `count` (`key_one` / `key_other` by Intl.PluralRules), `defaultValue`; a key missing in Spanish shows the English
 *   text (the English file is loaded when that first happens), a key missing everywhere shows defaultValue or the key.
 * - `changeLanguage` loads the namespaces in use first, then switches; `document.documentElement.lang` follows.
 */
import { createContext, createElement, useContext, useMemo, useSyncExternalStore, type ReactNode } from 'react';

export const LANGUAGES = ['en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];
export interface Tree {
  [key: string]: string | Tree;
}
export type Resources = Partial<Record<Language, Record<string, Tree>>>;
export type TOptions = { count?: number; defaultValue?: string } & Record<string, unknown>;
export type TFunction = (key: string, options?: TOptions) => string;
type Loader = (lng: Language, ns: string) => Promise<Tree>;

const STORAGE_KEY = 'i18nextLng';
const COOKIE = 'i18next';

/** The supported language of a code such as `es-MX`, if any. */
const supported = (code: unknown): Language | undefined =>
  LANGUAGES.find((l) => typeof code === 'string' && code.toLowerCase().split(/[-_]/)[0] === l);

function stored(storage: () => Storage): string | null {
  try {
    return storage().getItem(STORAGE_KEY);
  } catch {
    return null; // storage blocked (private mode, sandboxed frame)
  }
}

/** The language to start in (order above). */
export function detectLanguage(): Language {
  const candidates = [
    new URLSearchParams(window.location.search).get('lng'),
    new RegExp(`(?:^|;\\s*)${COOKIE}=([^;]*)`).exec(document.cookie)?.[1],
    stored(() => window.localStorage),
    stored(() => window.sessionStorage),
    ...(navigator.languages ?? []),
    navigator.language,
    document.documentElement.getAttribute('lang'),
  ];
  for (const c of candidates) {
    const l = supported(c);
    if (l) return l;
  }
  return 'en';
}

/** Fetches a namespace file; a few retries on network or server errors, then an empty one (English fills in). */
const fetchNamespace: Loader = async (lng, ns) => {
  for (let attempt = 1; ; attempt++) {
    try {
      const r = await fetch(`/locales/${lng}/${ns}.json`);
      if (r.ok) return (await r.json()) as Tree;
      if (r.status < 500) return {};
    } catch {
      // network failure: retry below
    }
    if (attempt === 3) return {};
    await new Promise((resolve) => setTimeout(resolve, 400 * attempt));
  }
};

export class I18n {
  language: Language;
  isInitialized = false;
  private version = 0;
  private readonly data: Resources;
  private readonly pending = new Map<string, Promise<void>>();
  private readonly listeners = new Set<() => void>();
  private readonly used = new Set(['common']);
  private readonly load: Loader;
  /** The app's instance caches the language and sets the html lang; test instances leave the page alone. */
  private persist = false;

  constructor(opts: { lng?: string; resources?: Resources; load?: Loader } = {}) {
    this.language = supported(opts.lng) ?? 'en';
    this.data = opts.resources ?? {};
    this.load = opts.load ?? fetchNamespace;
    this.isInitialized = !!opts.resources;
  }

  /** Same as `language` (i18next's name for the language actually in use). */
  get resolvedLanguage(): Language {
    return this.language;
  }

  /** Detects the language, caches it, and loads the first namespace (the app calls this once at start). */
  async init(): Promise<void> {
    this.persist = true;
    this.setLanguage(detectLanguage());
    await this.loadNamespace('common');
    this.isInitialized = true;
    this.emit();
  }

  /** Undefined when `ns` is there in `lng`, else the promise of its load (started once). */
  loadNamespace(ns: string, lng: Language = this.language): Promise<void> | undefined {
    this.used.add(ns);
    if (this.data[lng]?.[ns]) return undefined;
    const id = `${lng}/${ns}`;
    let p = this.pending.get(id);
    if (!p) {
      p = this.load(lng, ns)
        .catch((): Tree => ({}))
        .then((tree) => {
          (this.data[lng] ??= {})[ns] = tree;
          this.emit();
        });
      this.pending.set(id, p);
    }
    return p;
  }

  async changeLanguage(lng: string): Promise<void> {
    const l = supported(lng) ?? 'en';
    await Promise.all([...this.used].map((ns) => this.loadNamespace(ns, l)));
    this.setLanguage(l);
    this.emit();
  }

  t: TFunction = (key, options) => this.getFixedT('common')(key, options);

  /** `t` for a namespace in a language (default: the current one), as react-i18next binds it. */
  getFixedT(ns: string, lng: Language = this.language): TFunction {
    return (key, options = {}) => {
      const lookup = (lng: Language): string | undefined => {
        const get = (k: string) => {
          let v: string | Tree | undefined = this.data[lng]?.[ns];
          for (const part of k.split('.')) v = typeof v === 'object' ? v[part] : undefined;
          return typeof v === 'string' ? v : undefined;
        };
        const { count } = options;
        const plural =
          typeof count === 'number'
            ? (get(`${key}_${new Intl.PluralRules(lng).select(count)}`) ?? get(`${key}_other`))
            : undefined;
        return plural ?? get(key);
      };
      let text = lookup(lng);
      if (text === undefined && lng !== 'en') {
        text = lookup('en');
        if (text === undefined) void this.loadNamespace(ns, 'en');
      }
      return (text ?? options.defaultValue ?? key).replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) =>
        name in options ? String(options[name]) : whole,
      );
    };
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };
  snapshot = () => this.version;

  private emit() {
    this.version++;
    for (const l of this.listeners) l();
  }

  private setLanguage(l: Language) {
    this.language = l;
    if (!this.persist) return;
    document.documentElement.lang = l;
    try {
      window.localStorage.setItem(STORAGE_KEY, l);
    } catch {
      // storage blocked: the cookie still remembers
    }
    const secure = window.location.protocol === 'https:' ? '; Secure' : '';
    document.cookie = `${COOKIE}=${l}; Path=/; Max-Age=31536000; SameSite=Lax${secure}`;
  }
}

/** The app's instance. */
const i18n = new I18n();
export default i18n;

export function initI18n(): Promise<void> {
  return i18n.init();
}

const I18nContext = createContext(i18n);

/** Gives a subtree another instance (tests: the real locale files, a fixed language). */
export function I18nProvider(props: { i18n: I18n; children?: ReactNode }) {
  return createElement(I18nContext.Provider, { value: props.i18n }, props.children);
}

/** `{ t, i18n }` for a namespace (default `common`); suspends until the namespace is loaded in the language. */
export function useTranslation(ns = 'common'): { t: TFunction; i18n: I18n } {
  const instance = useContext(I18nContext);
  useSyncExternalStore(instance.subscribe, instance.snapshot);
  const { language } = instance;
  const value = useMemo(() => ({ t: instance.getFixedT(ns, language), i18n: instance }), [instance, ns, language]);
  const loading = instance.loadNamespace(ns);
  if (loading) throw loading;
  return value;
}
