/**
 * How the product's server is started: `npm run serve` (and so `npm start`) prints these arguments through this file,
 * and the browser suite and the compiled-server tests import `serveArgs` from it, so the program under test is the one
 * that ships, with the same flags (issue 25, decision 0187). One process runs the server: the compiled server
 * (scripts/build-server.ts) when it is at least as new as every source file, else the TypeScript through tsx, so a
 * change is never served stale. Run as a script it prints Node's arguments; the note goes to stderr.
 */
import fs from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const BUILT = 'apps/server/dist/main.js';

// V8 keeps a second, optimised copy of hot WASM code; for the embedded database (PGlite's ~8 MB module) that copy
// costs ~60-100 MB of memory for no measurable speed in its queries (docs/performance.md, decision 0172). `gc` lets
// the embedded database drop what creating a fresh one leaves behind, ~350 MB (apps/server/src/db/client.ts, 0175).
// V8 derives how far its heap may grow before a full collection from the heap limit: with the default limit (~4 GB
// on a machine with 16 GB or more) up to 4× the live objects, so under load the requests' garbage took the heap from
// ~70 to ~210 MB and the process past 250 MB. A 1 GB limit, still ~15× the server's live heap, caps that factor at
// ~1.6× for a few more collections (issue 17, decision 0183). That alone cost throughput: with 200 requests in
// flight, the default 16 MB young generation promoted requests' objects still in use, filling the old one; 32 MB
// lets most die young (PostgreSQL /check 0.38-0.47× → 0.50-0.59× the baseline, RSS ~170 → ~200 MB).
// These are V8 flags, which Node refuses in a worker thread's execArgv: workers take only `--conditions`
// (workerExecArgv in apps/server/src/modules/signing/document-worker-pool.ts).
export const V8_FLAGS = ['--liftoff-only', '--expose-gc', '--max-old-space-size=1024', '--max-semi-space-size=32'];

// The C library gives each thread that allocates its own malloc arena (up to 8 per core), and V8's collector threads
// allocate outside the JS heap: under the plan scheduler's load that memory grew ~50 → ~100 MB and took the server
// past 250 MB. Two arenas: peak RSS 254–258 → 237–245 MB at the same charge rate, and the API's throughput unchanged
// (decision 0236). glibc reads it when the process starts, so it is in the process's environment (`npm run serve`'s
// line, and every spawn of serveArgs takes SERVE_ENV), never in .env. A value the operator sets wins.
export const SERVE_ENV = { MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX || '2' };

function newestSource() {
  let newest = 0;
  for (const pkg of ['apps/server', 'packages/shared']) {
    for (const e of fs.readdirSync(path.join(ROOT, pkg, 'src'), { withFileTypes: true, recursive: true })) {
      if (e.isFile() && e.name.endsWith('.ts')) {
        newest = Math.max(newest, fs.statSync(path.join(e.parentPath, e.name)).mtimeMs);
      }
    }
  }
  return newest;
}

/** Whether the compiled server exists and is at least as new as every source file. */
export function isBuilt() {
  const file = path.join(ROOT, BUILT);
  return fs.existsSync(file) && fs.statSync(file).mtimeMs >= newestSource();
}

/**
 * Node's arguments for the server, relative to the repository root. With `requireBuilt`, a missing or stale build
 * throws instead of falling back to the sources (the browser suite tests only what ships).
 */
export function serveArgs({ requireBuilt = false } = {}) {
  const built = isBuilt();
  if (!built && requireBuilt) {
    throw new Error('The compiled server is missing or older than the sources: run `npm run build` first.');
  }
  return built
    ? [...V8_FLAGS, '--conditions=paylink-build', BUILT]
    : [...V8_FLAGS, '--import', 'tsx', 'apps/server/src/main.ts'];
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const args = serveArgs();
  if (args.includes('tsx')) {
    console.error('Serving the TypeScript sources (`npm run build` compiles the server for a faster start).');
  }
  console.log(args.join(' '));
}
