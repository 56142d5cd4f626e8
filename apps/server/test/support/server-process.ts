import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVE_ENV } from '../../../../scripts/server-entry.mjs';
import { freePort } from './ports.js';

/** The repository root: the server is started from there, as `npm start` does. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

const children: ChildProcess[] = [];
const dataDirs: string[] = [];

export interface ServerProcess {
  /** The app's URL as the server prints it (localhost). */
  url: string;
  /** The same on 127.0.0.1 (the address it listens on). */
  loopbackUrl: string;
  gatewayOrigin: string;
  dataDir: string;
  child: ChildProcess;
  output: () => string;
  /** The staff token the server writes into its data dir in sandbox mode. */
  token: () => string;
}

/**
 * The real server as a child process (`apps/server/src/main.ts`), sandbox mode, on free ports and a fresh data dir,
 * with `env` on top. Resolves once the start banner's last line is printed. Stop every started server with
 * `stopServerProcesses()` in `afterAll`.
 */
export async function startServerProcess(
  env: Record<string, string>,
  dirPrefix = 'paylink-proc-',
  /** Node's arguments: the TypeScript sources through tsx unless given (the compiled server, say). */
  command: string[] = ['--import', 'tsx', 'apps/server/src/main.ts'],
): Promise<ServerProcess> {
  const [port, signPort, gatewayPort] = [await freePort(), await freePort(), await freePort()];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), dirPrefix));
  dataDirs.push(dataDir);
  // The test runner's own settings (a data dir, a database, reminder timings) must not leak into the server.
  const base = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !k.startsWith('PAYLINK_') && !k.startsWith('REMINDER_') && k !== 'DATABASE_URL' && k !== 'PORT',
    ),
  );
  const child = spawn(process.execPath, command, {
    cwd: ROOT,
    env: {
      ...base,
      // What `npm run serve` starts the process with (scripts/server-entry.mjs).
      ...SERVE_ENV,
      PORT: String(port),
      SIGN_PORT: String(signPort),
      GATEWAY_PORT: String(gatewayPort),
      HOST: '127.0.0.1',
      PAYLINK_DATA_DIR: dataDir,
      PAYLINK_MODE: 'sandbox',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const deadline = Date.now() + 90_000;
  // Wait for the banner's last line: the server is listening and has printed everything.
  while (!output.includes('npm run paylink -- --help')) {
    if (child.exitCode !== null) throw new Error(`server exited:\n${output}`);
    if (Date.now() > deadline) throw new Error(`server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url: `http://localhost:${port}`,
    loopbackUrl: `http://127.0.0.1:${port}`,
    gatewayOrigin: `http://127.0.0.1:${gatewayPort}`,
    dataDir,
    child,
    output: () => output,
    token: () => fs.readFileSync(path.join(dataDir, 'admin-token'), 'utf8').trim(),
  };
}

/** SIGTERM (then SIGKILL after 5 s) every server this test file started, and remove their data dirs. */
export async function stopServerProcesses(): Promise<void> {
  for (const c of children.splice(0)) {
    if (c.exitCode === null) {
      const exited = new Promise((r) => c.once('exit', r));
      c.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (c.exitCode === null) c.kill('SIGKILL');
    }
  }
  for (const d of dataDirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
}
