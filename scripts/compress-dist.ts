/**
 * Precompression of built web apps (issue 17): writes `file.br` (Brotli, quality 11) and `file.gz` (gzip, level 9)
 * beside every text asset of a built dist, so the server sends them by `Accept-Encoding` negotiation
 * (@fastify/static `preCompressed`) with no compression work per request.
 *
 * Generic for any Vite dist: with no arguments it compresses every `apps/<name>/dist` that has an index.html (the
 * patient app and the console alike). `npm run build` runs it on each app
 * right after its Vite build (scripts/build.ts).
 *   node --import tsx scripts/compress-dist.ts [dist-dir …]
 */
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

const TEXT = /\.(js|mjs|css|html|json|svg|txt|xml|webmanifest|map|wasm|ico)$/i;
/** Below this the headers cost more than the bytes saved. */
const MIN_BYTES = 256;

export interface CompressStats {
  files: number;
  bytes: number;
  brBytes: number;
  gzBytes: number;
}

function* walk(dir: string): Generator<string> {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* walk(p);
    else if (e.isFile()) yield p;
  }
}

/**
 * Compresses every text file under `dir` (idempotent: rewrites siblings that are older than their source). The files
 * are compressed at once on libuv's thread pool, so every core works (Brotli at quality 11 is most of the build's
 * post-processing time).
 */
export async function compressDist(
  dir: string,
  { brotliQuality = constants.BROTLI_MAX_QUALITY }: { brotliQuality?: number } = {},
): Promise<CompressStats> {
  const stats: CompressStats = { files: 0, bytes: 0, brBytes: 0, gzBytes: 0 };
  const files = [...walk(dir)].filter((f) => TEXT.test(f) && !f.includes(`${path.sep}.vite${path.sep}`));
  await Promise.all(
    files.map(async (file) => {
      const src = fs.readFileSync(file);
      if (src.length < MIN_BYTES) return;
      const mtime = fs.statSync(file).mtimeMs;
      const [br, gz] = await Promise.all([
        brotliAsync(src, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: brotliQuality,
            [constants.BROTLI_PARAM_SIZE_HINT]: src.length,
          },
        }),
        gzipAsync(src, { level: 9 }),
      ]);
      stats.files++;
      stats.bytes += src.length;
      // A variant that is not smaller is not written: the server then falls back to the next encoding or identity.
      for (const [ext, data] of [
        ['.br', br],
        ['.gz', gz],
      ] as const) {
        const out = file + ext;
        if (data.length >= src.length) {
          fs.rmSync(out, { force: true });
          continue;
        }
        if (!fs.existsSync(out) || fs.statSync(out).mtimeMs < mtime || fs.statSync(out).size !== data.length) {
          fs.writeFileSync(out, data);
        }
        if (ext === '.br') stats.brBytes += data.length;
        else stats.gzBytes += data.length;
      }
    }),
  );
  return stats;
}

/** Every built app under apps/ (a dist with an index.html). */
export function builtDists(root: string): string[] {
  const apps = path.join(root, 'apps');
  return fs
    .readdirSync(apps)
    .map((name) => path.join(apps, name, 'dist'))
    .filter((d) => fs.existsSync(path.join(d, 'index.html')));
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const root = path.resolve(import.meta.dirname, '..');
  const dirs = process.argv.slice(2).length ? process.argv.slice(2) : builtDists(root);
  for (const dir of dirs) {
    const s = await compressDist(dir);
    const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
    console.log(
      `precompressed ${path.relative(root, path.resolve(dir))}: ${s.files} files, ${kb(s.bytes)} → br ${kb(s.brBytes)}, gz ${kb(s.gzBytes)}`,
    );
  }
}
