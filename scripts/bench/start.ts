/**
 * Start time: `npm run serve` (node, the compiled server or tsx, migrations, seed, listen) until /healthz answers 200, on a fresh data
 * dir and again on the same (existing) one. The process is started exactly as `npm run serve` starts it.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../e2e/support/server.js';
import { rssMb } from './product.js';
import { SERVE_ENV, serveArgs } from '../server-entry.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');

async function timeToHealthy(dataDir: string): Promise<{ ms: number; idleRssMb?: number }> {
  const [port, signPort, gatewayPort] = [await freePort(), await freePort(), await freePort()];
  const env = { ...process.env, PORT: String(port), SIGN_PORT: String(signPort), GATEWAY_PORT: String(gatewayPort) };
  Object.assign(env, {
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://localhost:${port}`,
    PAYLINK_DATA_DIR: dataDir,
    PAYLINK_MODE: 'sandbox',
    LOG_LEVEL: 'warn',
  });
  delete env.DATABASE_URL;
  const t0 = performance.now();
  // What `npm run serve` runs (the compiled server when it is up to date), without npm's own start-up.
  const child = spawn(process.execPath, serveArgs(), {
    cwd: ROOT,
    env: { ...SERVE_ENV, ...env },
    stdio: 'ignore',
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error('the server exited during start');
      const ok = await fetch(`http://127.0.0.1:${port}/healthz`)
        .then((r) => r.ok)
        .catch(() => false);
      if (ok) break;
      if (performance.now() - t0 > 60_000) throw new Error('no /healthz within 60 s');
      await new Promise((r) => setTimeout(r, 50));
    }
    const ms = Math.round(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 3000));
    return { ms, idleRssMb: rssMb(child.pid) };
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
}

export async function measureStart(buildMs: number | undefined) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'paylink-bench-start-'));
  try {
    const fresh = await timeToHealthy(dataDir);
    const existing = await timeToHealthy(dataDir);
    return {
      serveFreshMs: fresh.ms,
      serveExistingMs: existing.ms,
      idleRssPgliteMb: existing.idleRssMb,
      buildMs,
      startFreshMs: buildMs === undefined ? undefined : buildMs + fresh.ms,
    };
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
