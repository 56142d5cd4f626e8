import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MIGRATIONS_DIR } from './migrations-dir.js';

/**
 * A migrated, empty embedded database made once by `npm run build` (scripts/pglite-template.ts) and copied into a
 * fresh data dir instead of creating one there (issue 17, decision 0181): PGlite's initdb and the migrations are
 * most of a fresh start (~3 of ~4 s). The template holds only what initdb and the migrations make (the migrations
 * insert no rows: no secret, no practice data; every install's boot seed runs on its own copy). Its name carries a
 * key of the PGlite version and every migration file's name and text, so a template made by another PGlite or
 * another set of migrations is never used: a data dir copied from it is exactly what creating it would give.
 */

/** src/db and dist/db are at the same depth: the repository root is four levels up either way. */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
export const TEMPLATE_CACHE = path.join(ROOT, 'node_modules/.cache/paylink');
/** Bump when what goes into a template changes in a way the key does not see. */
const FORMAT = 'pglite-template-1';

function pgliteVersion(): string {
  let dir = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  for (;;) {
    const pkg = path.join(dir, 'package.json');
    if (fs.existsSync(pkg)) {
      const json = JSON.parse(fs.readFileSync(pkg, 'utf8')) as { name?: string; version?: string };
      if (json.name === '@electric-sql/pglite') return String(json.version);
    }
    const up = path.dirname(dir);
    if (up === dir) throw new Error('@electric-sql/pglite: package.json not found');
    dir = up;
  }
}

/** The template's key: PGlite's version and the migration set (names and contents, in order). */
export function templateKey(migrationsDir = MIGRATIONS_DIR): string {
  const h = createHash('sha256').update(`${FORMAT}\0${pgliteVersion()}\0`);
  for (const f of fs.readdirSync(migrationsDir).sort()) {
    if (!f.endsWith('.sql')) continue;
    h.update(`${f}\0`)
      .update(fs.readFileSync(path.join(migrationsDir, f)))
      .update('\0');
  }
  return h.digest('hex').slice(0, 20);
}

export function templatePath(cache = TEMPLATE_CACHE, migrationsDir = MIGRATIONS_DIR): string {
  return path.join(cache, `pglite-${templateKey(migrationsDir)}`);
}

/** A plain recursive copy: ~2× faster than fs.cpSync on the template's ~1,200 files (it checks less per file). */
function copyTree(from: string, to: string) {
  fs.mkdirSync(to);
  for (const e of fs.readdirSync(from, { withFileTypes: true })) {
    const a = path.join(from, e.name);
    const b = path.join(to, e.name);
    if (e.isDirectory()) copyTree(a, b);
    else if (e.isFile()) fs.copyFileSync(a, b);
  }
}

/**
 * Copies the template into `dataDir` when `dataDir` does not exist yet and a template for this PGlite and these
 * migrations does; returns whether it did. The copy is made beside `dataDir` and renamed into place, so a start
 * stopped half-way leaves no half-copied database. Anything else (an existing or partial data dir, no template, a
 * copy that fails) is left to PGlite, which creates the database as before.
 */
export function restoreTemplate(dataDir: string, cache = TEMPLATE_CACHE, migrationsDir = MIGRATIONS_DIR): boolean {
  if (fs.existsSync(dataDir)) return false;
  let template: string;
  try {
    template = templatePath(cache, migrationsDir);
  } catch {
    return false;
  }
  if (!fs.existsSync(path.join(template, 'PG_VERSION'))) return false;
  const tmp = `${dataDir}.copying-${process.pid}`;
  try {
    fs.rmSync(tmp, { recursive: true, force: true });
    fs.mkdirSync(path.dirname(dataDir), { recursive: true });
    copyTree(template, tmp);
    fs.renameSync(tmp, dataDir);
    return true;
  } catch {
    fs.rmSync(tmp, { recursive: true, force: true });
    return false;
  }
}
