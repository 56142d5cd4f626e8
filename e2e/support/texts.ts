import fs from 'node:fs';
import path from 'node:path';
import { PRODUCT_ROOT } from './server.js';

export type Lng = 'en' | 'es';

const LOCALES = path.join(PRODUCT_ROOT, 'apps/web/public/locales');
const cache = new Map<Lng, Record<string, Record<string, unknown>>>();

function namespaces(lng: Lng): Record<string, Record<string, unknown>> {
  let ns = cache.get(lng);
  if (!ns) {
    ns = {};
    const dir = path.join(LOCALES, lng);
    for (const f of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
      if (f.endsWith('.json')) ns[f.slice(0, -5)] = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
    }
    cache.set(lng, ns);
  }
  return ns;
}

function lookup(obj: unknown, key: string): unknown {
  if (obj && typeof obj === 'object' && key in obj) return (obj as Record<string, unknown>)[key];
  return key
    .split('.')
    .reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), obj);
}

/**
 * The app's own translation of `key` ("ns:key" or a key searched in every namespace), with {{var}} filled in.
 * Tests use it to find controls in either language; the Spanish journey also checks that the Spanish text differs
 * from the English one, so an untranslated screen fails.
 */
export function t(lng: Lng, key: string, vars: Record<string, string | number> = {}): string {
  const all = namespaces(lng);
  let value: unknown;
  const sep = key.indexOf(':');
  if (sep > 0 && all[key.slice(0, sep)]) value = lookup(all[key.slice(0, sep)], key.slice(sep + 1));
  else for (const ns of Object.values(all)) if ((value = lookup(ns, key)) !== undefined) break;
  if (typeof value !== 'string') throw new Error(`No ${lng} text for key "${key}" in ${path.join(LOCALES, lng)}`);
  return value.replace(/\{\{\s*(\w+)\s*\}\}/g, (_m, v: string) => String(vars[v] ?? `{{${v}}}`));
}

/** A RegExp matching the text exactly (case-sensitive, whitespace-tolerant), for getByRole/getByText names. */
export function exact(text: string): RegExp {
  const esc = text
    .trim()
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    .replace(/\s+/g, '\\s+');
  return new RegExp(`^\\s*${esc}\\s*$`);
}
