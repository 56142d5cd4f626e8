/** A real i18next instance for component tests, fed from the locale files in public/locales (no HTTP). */
import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { i18nOptions } from '../i18n';

const files = import.meta.glob<Record<string, unknown>>('../../public/locales/*/*.json', {
  eager: true,
  import: 'default',
});

export function localeResources() {
  const resources: Record<string, Record<string, Record<string, unknown>>> = {};
  for (const [path, data] of Object.entries(files)) {
    const m = /locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
    if (!m) continue;
    (resources[m[1]!] ??= {})[m[2]!] = data;
  }
  return resources;
}

export async function createTestI18n(lng = 'en'): Promise<I18n> {
  const instance = i18next.createInstance();
  await instance.use(initReactI18next).init({
    ...i18nOptions,
    lng,
    ns: Object.keys(localeResources().en ?? { common: {} }),
    resources: localeResources(),
    react: { useSuspense: false },
  });
  return instance;
}
