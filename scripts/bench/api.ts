/**
 * API load (loopback only, bounded): autocannon against /check, /patientinfo and /notoken of the product, on the
 * embedded database (PGlite) and on the machine's PostgreSQL server, and a bare Fastify + pg baseline on the same
 * PostgreSQL in the same run. Memory is sampled from /proc while the load runs.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import autocannon from 'autocannon';
import { freePort } from '../../e2e/support/server.js';
import { apiKey, rssMb, signedInPatient, startProduct, type RunningProduct } from './product.js';
import { serveArgs } from '../server-entry.mjs';

export interface LoadFigure {
  target: 'pglite' | 'postgres' | 'baseline';
  endpoint: string;
  connections: number;
  seconds: number;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  rssPeakMb?: number;
}

const ROOT = path.resolve(import.meta.dirname, '../..');
const WARMUP_SECONDS = 2;

async function load(
  url: string,
  headers: Record<string, string>,
  o: { connections: number; seconds: number; pid?: number },
): Promise<Omit<LoadFigure, 'target' | 'endpoint'>> {
  // The same unmeasured warm-up for the product and the baseline (their JIT and connections settle first); the RSS
  // peak still counts it.
  let peak = rssMb(o.pid) ?? 0;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(o.pid) ?? 0)), 250);
  try {
    const r = await autocannon({
      url,
      headers,
      connections: o.connections,
      duration: o.seconds,
      timeout: 10,
      warmup: { connections: o.connections, duration: WARMUP_SECONDS },
    });
    const warm = (r as { warmup?: { errors: number; timeouts: number; non2xx: number } }).warmup;
    const warmErrors = warm ? warm.errors + warm.timeouts + warm.non2xx : 0;
    return {
      connections: o.connections,
      seconds: o.seconds,
      requests: r.requests.total,
      rps: Math.round(r.requests.average),
      p50: r.latency.p50,
      p99: r.latency.p99,
      max: r.latency.max,
      errors: r.errors + warmErrors,
      timeouts: r.timeouts,
      non2xx: r.non2xx,
      rssPeakMb: o.pid ? peak : undefined,
    };
  } finally {
    clearInterval(sampler);
  }
}

/** The three patient reads of the issue, with a signed-in patient's token. */
function endpoints(product: RunningProduct, linkId: string) {
  return [
    { name: '/check', url: `${product.baseUrl}/api/linksteps/script/${linkId}/check` },
    { name: '/patientinfo', url: `${product.baseUrl}/api/patients/patientinfo/${linkId}` },
    { name: '/notoken', url: `${product.baseUrl}/api/patients/${linkId}/notoken` },
  ];
}

export interface ApiRun {
  target: 'pglite' | 'postgres';
  idleRssMb?: number;
  figures: LoadFigure[];
}

export async function loadProduct(
  target: 'pglite' | 'postgres',
  o: { connections: number; seconds: number; databaseUrl?: string },
): Promise<{ run: ApiRun; product: RunningProduct }> {
  // startProduct reads DATABASE_URL (a fresh database on that server) when it starts and when it stops.
  if (target === 'postgres') process.env.DATABASE_URL = o.databaseUrl;
  else delete process.env.DATABASE_URL;
  // The per-IP layer off: one loopback client is exactly what it refuses; its own tests cover it (429s would be counted
  // as fast answers and flatter the figures).
  // What `npm run serve` runs: the compiled server when it is up to date (scripts/server-entry.mjs).
  const product = await startProduct(
    { LOG_LEVEL: 'warn', RATE_LIMIT_DEFAULT_PER_MINUTE: '0', RATE_LIMIT_LOOKUP_PER_MINUTE: '0' },
    serveArgs(),
  );

  const patient = await signedInPatient(product);
  const headers = { 'x-api-key': await apiKey(product), authorization: `Bearer ${patient.token}` };
  // Settle, then the idle figure: after start, sign-in and one call of each.
  for (const e of endpoints(product, patient.link.id)) {
    const r = await fetch(e.url, { headers });
    if (!r.ok) throw new Error(`${e.name} answered ${r.status}: ${await r.text()}`);
  }
  await new Promise((r) => setTimeout(r, 2000));
  const pid = product.pid;
  const run: ApiRun = { target, idleRssMb: rssMb(pid), figures: [] };
  for (const e of endpoints(product, patient.link.id)) {
    const f = await load(e.url, headers, { ...o, pid });
    run.figures.push({ target, endpoint: e.name, ...f });
    console.log(
      `  ${target.padEnd(8)} ${e.name.padEnd(13)} ${String(f.rps).padStart(6)} req/s  p99 ${f.p99} ms  max ${f.max} ms  errors ${f.errors + f.timeouts + f.non2xx}  RSS ≤ ${f.rssPeakMb ?? '?'} MB`,
    );
  }
  return { run, product };
}

/** The bare Fastify + pg yardstick against the product's own PostgreSQL database (a real link row). */
export async function loadBaseline(
  databaseUrl: string,
  linkId: string,
  o: { connections: number; seconds: number },
): Promise<LoadFigure> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    // The product's pool size (DATABASE_POOL_MAX, as the product reads it; 10 by default).
    [
      '--import',
      'tsx',
      'scripts/bench/baseline-server.ts',
      String(port),
      databaseUrl,
      process.env.DATABASE_POOL_MAX ?? '10',
    ],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (d: Buffer) => d.toString().includes('baseline ready') && resolve());
      child.once('exit', (c) => reject(new Error(`baseline server exited (${c})`)));
    });
    const url = `http://127.0.0.1:${port}/link/${linkId}`;
    const r = await fetch(url);
    if (!r.ok) throw new Error(`baseline answered ${r.status}`);
    const f = await load(url, {}, { ...o, pid: child.pid });
    console.log(`  baseline SELECT        ${String(f.rps).padStart(6)} req/s  p99 ${f.p99} ms  max ${f.max} ms`);
    return { target: 'baseline', endpoint: 'one indexed SELECT', ...f };
  } finally {
    child.kill('SIGTERM');
  }
}
