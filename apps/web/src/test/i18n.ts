/** A real i18n instance for component tests, fed from the locale files in public/locales (no HTTP). */
import { I18n, type Resources, type Tree } from '../i18n';

const files = import.meta.glob<Tree>('../../public/locales/*/*.json', {
  eager: true,
  import: 'default',
});

export function localeResources(): Resources {
  const resources: Record<string, Record<string, Tree>> = {};
  for (const [path, data] of Object.entries(files)) {
    const m = /locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
    if (!m) continue;
    (resources[m[1]!] ??= {})[m[2]!] = data;
  }
  return resources;
}

export async function createTestI18n(lng = 'en'): Promise<I18n> {
  return new I18n({ lng, resources: localeResources() });
}
