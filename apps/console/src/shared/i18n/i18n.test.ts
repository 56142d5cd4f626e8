import { describe, expect, it } from 'vitest';
import { en } from './en';
import { es } from './es';

function keys(o: object, prefix = ''): string[] {
  return Object.entries(o).flatMap(([k, v]) =>
    typeof v === 'object' && v !== null ? keys(v as object, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}
const placeholders = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
function valueAt(o: object, path: string): string {
  return path.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown>)[k], o) as string;
}

describe('console translations', () => {
  it('Spanish has exactly the English keys', () => {
    expect(keys(es).sort()).toEqual(keys(en).sort());
  });

  it('every string is translated and keeps its placeholders', () => {
    for (const k of keys(en)) {
      const e = valueAt(en, k);
      const s = valueAt(es, k);
      expect(s.trim(), k).not.toBe('');
      expect(placeholders(s), k).toEqual(placeholders(e));
    }
  });
});
