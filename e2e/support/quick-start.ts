import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, ROOT, type RunningProduct } from './server.js';

/**
 * The README's quick start, literally: `npm start` in this checkout (it builds, then serves), with nothing set but a
 * free port for each of the three servers and a fresh data dir, as a new user on a fresh clone runs it (issue 25).
 * `npm ci` has run before (CI's first step). Never run beside other browser files: `npm start` rebuilds the apps
 * and the compiled server that their products are served from.
 */
export async function startQuickStart(): Promise<RunningProduct> {
  const [port, signPort, gatewayPort] = [await freePort(), await freePort(), await freePort()];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'paylink-quick-start-'));
  const env: Record<string, string> = {
    PORT: String(port),
    SIGN_PORT: String(signPort),
    GATEWAY_PORT: String(gatewayPort),
    PAYLINK_DATA_DIR: dataDir,
  };
  // The test runner's own settings (a database, a mode, rate limits) stay out: the product gets its defaults.
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) =>
        !/^(PAYLINK_|RATE_LIMIT_|REMINDER_|OTP_|DATABASE_URL$|PUBLIC_URL$|SIGN_ORIGIN$|GATEWAY_ORIGIN$|HOST$|PORT$)/.test(
          k,
        ),
    ),
  );
  // Its own process group, so stopping it stops npm, the build's children and the server together.
  const child = spawn('npm', ['start'], {
    cwd: ROOT,
    env: { ...inherited, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const baseUrl = `http://localhost:${port}`;
  const halt = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    process.kill(-child.pid!, 'SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
  };
  // The build and the first start of a fresh data dir, on a loaded 2-core machine.
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start exited (${child.exitCode}) before it answered:\n${output}`);
    const ok = await fetch(`${baseUrl}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      await halt();
      throw new Error(`npm start did not answer /healthz within 180 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return {
    baseUrl,
    signOrigin: `http://localhost:${signPort}`,
    gatewayOrigin: `http://localhost:${gatewayPort}`,
    dataDir,
    env: { ...env, PUBLIC_URL: baseUrl },
    pid: child.pid,
    output: () => output,
    halt,
    stop: async () => {
      await halt();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
