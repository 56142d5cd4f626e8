import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Issue 10 item 4 (docs/decisions/0105): the link lifecycle has one owner. Every write of a link's status or expiry
 * and of its steps is in link-lifecycle.ts; nothing else in the product writes them with its own SQL, and links does
 * not import signing (the old links ↔ signing loop).
 */
const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const OWNER = path.join(SRC, 'modules/links/link-lifecycle.ts');

function productFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return productFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

// Each as SQL text or as the typed builder (db/typed.ts, decision 0125).
const LIFECYCLE_WRITES = [
  /\bupdate\s+link_step\b|\.updateTable\(\s*'link_step'/i,
  /\binsert\s+into\s+link_step\b|\.insertInto\(\s*'link_step'/i,
  /\bdelete\s+from\s+link_step\b|\.deleteFrom\(\s*'link_step'/i,
  /\bupdate\s+link\s+set\b[^`'"]*\b(status|expires_at|completed_at|cancelled_at)\s*=|\.updateTable\(\s*'link'\s*\)(?:(?!\.execute)[\s\S]){0,400}?\b(status|expires_at|completed_at|cancelled_at)\s*:/i,
];

describe('the link lifecycle has one owner', () => {
  it('no product file but link-lifecycle.ts writes link status, expiry or steps', () => {
    const offenders = productFiles(SRC)
      .filter((f) => f !== OWNER)
      .filter((f) => LIFECYCLE_WRITES.some((re) => re.test(fs.readFileSync(f, 'utf8'))))
      .map((f) => path.relative(SRC, f));
    expect(offenders).toEqual([]);
    expect(LIFECYCLE_WRITES.every((re) => re.test(fs.readFileSync(OWNER, 'utf8')))).toBe(true);
  });

  it('links never imports signing', () => {
    const imports = productFiles(path.join(SRC, 'modules/links')).filter((f) =>
      /from '\.\.\/signing\//.test(fs.readFileSync(f, 'utf8')),
    );
    expect(imports.map((f) => path.relative(SRC, f))).toEqual([]);
  });
});
