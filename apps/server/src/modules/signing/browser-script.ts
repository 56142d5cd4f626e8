import path from 'node:path';
import { build } from 'esbuild';

/**
 * The signing page's script (assets/signing/sign.ts) as the browser runs it: bundled by esbuild with what it imports
 * (the contract's reflow, reflow-text.ts, which the server uses too), types stripped, once per process on its first
 * request (the caller keeps the result, compressed, in memory). Compiling where it is served, not at build, gives the
 * sources, the compiled server and the tests one path and never a stale copy (decision 0200). Same syntax level as the
 * apps' Vite builds; not minified, as the hand-written file was sent. pdf.js is imported at run time from a URL, which
 * esbuild leaves alone.
 */
export async function compileBrowserScript(file: string): Promise<Buffer> {
  const { outputFiles } = await build({
    entryPoints: [path.resolve(file)],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'silent',
  });
  return Buffer.from(outputFiles[0]!.contents);
}
