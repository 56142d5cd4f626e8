/**
 * `npm run bench`: measurements that are not tests (COMMON.md: no timed tests).
 *
 * Web size budget (issue 4): builds the web app and reports the gzipped JavaScript a browser must download to
 * render /auth: the entry chunk, the /auth page chunk, and every chunk they import statically (each counted once).
 * Budget: 90 KB. Also lists the other pages' own cost for comparison.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const ROOT = path.resolve(import.meta.dirname, '..');
const WEB = path.join(ROOT, 'apps/web');
const DIST = path.join(WEB, 'dist');
const BUDGET_KB = 90;

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

function build() {
  if (process.argv.includes('--no-build')) return;
  console.log('Building the web app (npm run build -w @paylink/web)...');
  execFileSync('npm', ['run', 'build', '-w', '@paylink/web'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
}

const gz = new Map<string, number>();
function gzipKb(file: string): number {
  if (!gz.has(file)) gz.set(file, gzipSync(fs.readFileSync(path.join(DIST, file))).length / 1024);
  return gz.get(file)!;
}

/** A chunk and everything it imports statically (what must load before it runs). */
function closure(manifest: Manifest, key: string, into = new Set<string>()): Set<string> {
  if (into.has(key)) return into;
  into.add(key);
  for (const dep of manifest[key]?.imports ?? []) closure(manifest, dep, into);
  return into;
}

function sum(manifest: Manifest, keys: Iterable<string>) {
  let js = 0;
  const css = new Set<string>();
  for (const k of keys) {
    js += gzipKb(manifest[k]!.file);
    for (const c of manifest[k]!.css ?? []) css.add(c);
  }
  let cssKb = 0;
  for (const c of css) cssKb += gzipKb(c);
  return { js, css: cssKb };
}

function main() {
  build();
  const manifest = JSON.parse(fs.readFileSync(path.join(DIST, '.vite/manifest.json'), 'utf8')) as Manifest;
  const entry = Object.keys(manifest).find((k) => manifest[k]!.isEntry);
  const authKey = Object.keys(manifest).find((k) => k.endsWith('features/auth/auth-page.tsx'));
  if (!entry || !authKey) throw new Error('manifest has no entry or no /auth page chunk');

  const entryKeys = closure(manifest, entry);
  const authKeys = closure(manifest, authKey, new Set(entryKeys));
  const auth = sum(manifest, authKeys);
  const files = [...authKeys].map((k) => `${manifest[k]!.file} ${gzipKb(manifest[k]!.file).toFixed(1)} KB`);

  console.log('\nJavaScript to render /auth (gzipped):');
  for (const f of files) console.log(`  ${f}`);
  console.log(`  total: ${auth.js.toFixed(1)} KB (budget ${BUDGET_KB} KB${auth.js > BUDGET_KB ? ', OVER' : ''})`);
  console.log(`  CSS (gzipped): ${auth.css.toFixed(1)} KB`);

  console.log('\nOther pages, on top of the entry (gzipped JS):');
  for (const key of manifest[entry]!.dynamicImports ?? []) {
    const own = [...closure(manifest, key)].filter((k) => !entryKeys.has(k));
    const page = key.replace(/^src\//, '');
    console.log(`  ${page.padEnd(52)} ${sum(manifest, own).js.toFixed(1)} KB`);
  }
  console.log(`\nweb.auth.gzip_js_kb=${auth.js.toFixed(1)}`);
}

main();
