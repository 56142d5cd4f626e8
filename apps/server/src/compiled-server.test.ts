import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVE_ENV, serveArgs, V8_FLAGS } from '../../../scripts/server-entry.mjs';
import { ROOT, startServerProcess, stopServerProcesses, type ServerProcess } from '../test/support/server-process.js';

// `npm run serve` runs the compiled server (scripts/build-server.ts) when it is up to date: it must behave as the
// TypeScript sources do, paths and worker threads included, started with the flags `npm run serve` gives it.
let server: ServerProcess;
beforeAll(async () => {
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build-server.ts'], { cwd: ROOT, stdio: 'pipe' });
  server = await startServerProcess({}, 'paylink-compiled-', serveArgs({ requireBuilt: true }));
}, 120_000);
afterAll(() => stopServerProcesses());

describe('the compiled server', () => {
  it('starts, migrates and seeds, and answers the health check and a patient call', async () => {
    const health = await fetch(`${server.loopbackUrl}/healthz`);
    expect(await health.json()).toMatchObject({ status: 'ok', database: 'up' });
    const id = /Patient pays \(deposit\)\s+active.*auth\?id=([A-Za-z0-9_-]+)/.exec(server.output())?.[1];
    expect(id, server.output()).toBeTruthy();
    const r = await fetch(`${server.loopbackUrl}/api/patients/${id}/notoken?c=p`, {
      headers: { 'x-api-key': 'paylink-sandbox-api-key' },
    });
    expect(r.status).toBe(200);
    expect(await r.text()).toMatch(/\*\*\*.*\d{4}$/);
  });

  // Decision 0236: glibc reads MALLOC_ARENA_MAX only when a process starts, so `npm run serve`'s own line sets it.
  it('runs with two malloc arenas, as `npm run serve` starts it, unless the operator says otherwise', () => {
    expect(fs.readFileSync(`/proc/${server.child.pid}/environ`, 'utf8').split('\0')).toContain('MALLOC_ARENA_MAX=2');
    // `npm run serve`'s line up to `node`, then what that node would see
    const serve = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.serve as string;
    const seen = (own: string) =>
      execFileSync('sh', ['-c', `${serve.slice(0, serve.indexOf(' node '))} printenv MALLOC_ARENA_MAX`], {
        encoding: 'utf8',
        env: { ...process.env, MALLOC_ARENA_MAX: own },
      }).trim();
    expect(seen('')).toBe(SERVE_ENV.MALLOC_ARENA_MAX);
    expect(seen('4')).toBe('4');
  });

  it('converts a HEIC photo in its worker thread, compiled and with the V8 flags `npm run serve` passes', () => {
    const pool = path.join(ROOT, 'apps/server/dist/modules/signing/document-worker-pool.js');
    const heic = path.join(ROOT, 'apps/server/test/fixtures/id-photo.heic');
    const out = execFileSync(
      process.execPath,
      [
        ...V8_FLAGS,
        '--conditions=paylink-build',
        '--input-type=module',
        '-e',
        `import fs from 'node:fs';
         const { normaliseInWorker } = await import(${JSON.stringify(pool)});
         const r = await normaliseInWorker(fs.readFileSync(${JSON.stringify(heic)}));
         console.log(r.originalMime, r.mime, r.bytes.length > 1000);
         process.exit(0);`,
      ],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(out.trim()).toBe('image/heic image/jpeg true');
  }, 60_000);
});
