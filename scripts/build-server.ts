/**
 * Compiles the server and the shared package to plain JavaScript (issue 17: start time and memory). Every file is
 * transpiled on its own (no bundle), into `dist/` beside `src/` at the same depth, so the paths the server resolves
 * from its own location (migrations, assets, the web and console builds) stay the same. `@paylink/shared` is found
 * through its `paylink-build` export condition. `npm run serve` runs this output when it is newer than the sources
 * (scripts/server-entry.mjs); tests, the CLI and the browser suite run the TypeScript through tsx as before.
 *   node --import tsx scripts/build-server.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const ROOT = path.resolve(import.meta.dirname, '..');
export const SERVER_PACKAGES = ['apps/server', 'packages/shared'];

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).flatMap((e) => {
    const file = path.join(e.parentPath, e.name);
    return e.isFile() && /\.ts$/.test(e.name) && !/\.(test|d)\.ts$/.test(e.name) ? [file] : [];
  });
}

/** Compiles both packages; returns how many files. */
export async function buildServer(): Promise<number> {
  let files = 0;
  for (const pkg of SERVER_PACKAGES) {
    const src = path.join(ROOT, pkg, 'src');
    const out = path.join(ROOT, pkg, 'dist');
    fs.rmSync(out, { recursive: true, force: true });
    const entryPoints = sources(src);
    files += entryPoints.length;
    await build({
      entryPoints,
      outdir: out,
      outbase: src,
      bundle: false,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      sourcemap: 'linked',
      logLevel: 'warning',
    });
  }
  return files;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const started = Date.now();
  const files = await buildServer();
  console.log(`server: ${files} files compiled in ${Date.now() - started} ms`);
}
