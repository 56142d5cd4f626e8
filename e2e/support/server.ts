import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { freePort } from '../../apps/server/test/support/ports.js';
import { SERVE_ENV, serveArgs } from '../../scripts/server-entry.mjs';
import type { OutboxMessage } from './outbox.js';

export const ROOT = path.resolve(import.meta.dirname, '../..');
/**
 * Where the product under test lives: this checkout, or E2E_PRODUCT_ROOT (a copy with its own built web app, so a
 * `npm run build` elsewhere in a shared checkout cannot swap the app's files under a running suite).
 */
export const PRODUCT_ROOT = process.env.E2E_PRODUCT_ROOT ? path.resolve(process.env.E2E_PRODUCT_ROOT) : ROOT;

export { freePort };

export interface RunningProduct {
  baseUrl: string;
  signOrigin: string;
  gatewayOrigin: string;
  dataDir: string;
  env: Record<string, string>;
  /** The server process id (the bench reads its memory). */
  pid: number | undefined;
  /** What the server printed so far (stdout + stderr), for failure reports and log scans. */
  output: () => string;
  /** Stops the server process and keeps its data (to inspect the database afterwards). */
  halt: () => Promise<void>;
  stop: () => Promise<void>;
  /**
   * Where its SMS and e-mail go when not to the sandbox outbox (the production rehearsal's stand-ins): the messages
   * to `to`, newest first, shaped like the outbox's, so every step that reads a code or a receipt works unchanged.
   */
  inbox?: (to: string) => Promise<OutboxMessage[]>;
}

/**
 * Starts the product the way `npm start` runs it — the compiled server with `npm run serve`'s flags
 * (scripts/server-entry.mjs), the built web app and console, sandbox providers — on free ports with a fresh database:
 * a new data dir for PGlite, or a new database on DATABASE_URL's server. The one difference: `.env` is not read, so a
 * developer's own settings never reach a test (decision 0187).
 */
export async function startProduct(
  extraEnv: Record<string, string> = {},
  /** Node's arguments: what `npm run serve` runs, refusing a missing or stale build. */
  nodeArgs: string[] = serveArgs({ requireBuilt: true }),
): Promise<RunningProduct> {
  // A port free when picked can be taken by a parallel test file before the server binds it: pick again.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startProductOnce(extraEnv, nodeArgs);
    } catch (err) {
      if (!(err instanceof PortTakenError) || attempt >= 3) throw err;
    }
  }
}

class PortTakenError extends Error {}

async function startProductOnce(extraEnv: Record<string, string>, nodeArgs: string[]): Promise<RunningProduct> {
  const [port, signPort, gatewayPort] = [await freePort(), await freePort(), await freePort()];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'paylink-e2e-'));
  let databaseUrl: string | undefined;
  let dropDb: (() => Promise<void>) | undefined;
  if (process.env.DATABASE_URL) {
    const name = `paylink_e2e_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const u = new URL(process.env.DATABASE_URL);
    u.pathname = `/${name}`;
    databaseUrl = u.toString();
    dropDb = async () => {
      const a = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
    };
  }
  const env: Record<string, string> = {
    PORT: String(port),
    SIGN_PORT: String(signPort),
    GATEWAY_PORT: String(gatewayPort),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://localhost:${port}`,
    SIGN_ORIGIN: `http://127.0.0.1:${signPort}`,
    GATEWAY_ORIGIN: `http://127.0.0.1:${gatewayPort}`,
    PAYLINK_DATA_DIR: dataDir,
    PAYLINK_MODE: 'sandbox',
    // One browser on 127.0.0.1 drives many sign-ins a minute: the per-IP layer stays on, with room for the suite.
    RATE_LIMIT_DEFAULT_PER_MINUTE: '100000',
    RATE_LIMIT_AUTH_PER_MINUTE: '10000',
    RATE_LIMIT_LOOKUP_PER_MINUTE: '10000',
    RATE_LIMIT_VITALS_PER_MINUTE: '10000',
    RATE_LIMIT_STAFF_LOGIN_PER_MINUTE: '10000',
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...extraEnv,
  };
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...SERVE_ENV, ...env };
  if (!databaseUrl) delete childEnv.DATABASE_URL;
  const child: ChildProcess = spawn(process.execPath, nodeArgs, {
    cwd: PRODUCT_ROOT,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const baseUrl = env.PUBLIC_URL!;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) {
      const message = `The server exited during start:\n${output}`;
      if (!output.includes('EADDRINUSE')) throw new Error(message);
      await dropDb?.();
      fs.rmSync(dataDir, { recursive: true, force: true });
      throw new PortTakenError(message);
    }
    try {
      const r = await fetch(`${baseUrl}/healthz`);
      if (r.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`The server did not answer /healthz within 60 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const halt = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  return {
    baseUrl,
    signOrigin: env.SIGN_ORIGIN!,
    gatewayOrigin: env.GATEWAY_ORIGIN!,
    dataDir,
    env,
    pid: child.pid,
    output: () => output,
    halt,
    stop: async () => {
      await halt();
      await dropDb?.();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
