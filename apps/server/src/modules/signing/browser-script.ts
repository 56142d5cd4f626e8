import fs from 'node:fs';
import path from 'node:path';
import { transform } from 'esbuild';

/**
 * The signing page's script (assets/signing/sign.ts) as the browser runs it: the types stripped by esbuild, once per
 * process on its first request (the caller keeps the result, compressed, in memory). Compiling where it is served,
 * not at build, gives the sources, the compiled server and the tests one path and never a stale copy (decision 0200).
 * Same syntax level as the apps' Vite builds; not minified, as the hand-written file was sent.
 */
export async function compileBrowserScript(file: string): Promise<Buffer> {
  const source = await fs.promises.readFile(file, 'utf8');
  const { code } = await transform(source, {
    loader: 'ts',
    format: 'esm',
    target: 'es2022',
    sourcefile: path.basename(file),
  });
  return Buffer.from(code);
}
