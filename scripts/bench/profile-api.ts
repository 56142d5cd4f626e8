/**
 * Side-by-side load of the product on PostgreSQL and the bare baseline, with an optional CPU profile of the product.
 * Each target has 3 s of unmeasured load first.
 *   node --import tsx scripts/bench/profile-api.ts [--seconds=10] [--only=/check,/patientinfo] [--prof=DIR] [--rounds=2]
 */
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { apiKey, rssMb, signedInPatient, startProduct } from './product.js';
import { freePort } from '../../e2e/support/server.js';
import { createLink } from '../../e2e/support/admin.js';
import { serveArgs } from '../server-entry.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');
const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const seconds = Number(arg('seconds') ?? 10);
const rounds = Number(arg('rounds') ?? 2);
const only = arg('only')?.split(',');
const prof = arg('prof');
process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';

/** CPU seconds (user + system) of a process, from /proc. */
function cpuOf(pid: number): number {
  try {
    const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return 0;
  }
}
/** CPU seconds of each PostgreSQL server process, by pid. */
function pgCpu(): Map<number, number> {
  const t = new Map<number, number>();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (fs.readFileSync(`/proc/${d}/comm`, 'utf8').startsWith('postgres')) t.set(Number(d), cpuOf(Number(d)));
    } catch {
      /* gone */
    }
  }
  return t;
}
/** PostgreSQL CPU spent since `before`, over the processes alive now (a backend that exited meanwhile, such as the
 * baseline's when it stops, would otherwise count negative). */
function pgCpuSince(before: Map<number, number>): number {
  let t = 0;
  for (const [pid, cpu] of pgCpu()) t += cpu - (before.get(pid) ?? 0);
  return t;
}
function allCpu(): number {
  const f = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.split(/\s+/).slice(1).map(Number);
  return (f[0]! + f[1]! + f[2]! + f[5]! + f[6]!) / 100;
}

async function load(url: string, headers: Record<string, string>, pid?: number) {
  let peak = rssMb(pid) ?? 0;
  const s = setInterval(() => (peak = Math.max(peak, rssMb(pid) ?? 0)), 250);
  const c0 = [pid ? cpuOf(pid) : 0, pgCpu(), process.cpuUsage(), allCpu()] as const;
  const r = await autocannon({ url, headers, connections: 200, duration: seconds, timeout: 10 });
  const me = process.cpuUsage(c0[2]);
  const n = r.requests.total / 1e6;
  const srv = ((pid ? cpuOf(pid) : 0) - c0[0]) / n;
  const pgc = pgCpuSince(c0[1]) / n;
  const ac = (me.user + me.system) / 1e6 / n;
  const other = (allCpu() - c0[3]) / n - srv - pgc - ac;
  clearInterval(s);
  const us = (x: number) => String(Math.round(x)).padStart(4);
  return `${String(Math.round(r.requests.average)).padStart(6)} req/s p50 ${r.latency.p50} p99 ${r.latency.p99} max ${r.latency.max} err ${r.errors + r.timeouts + r.non2xx} rss ${peak} | CPU µs/req server ${us(srv)} pg ${us(pgc)} autocannon ${us(ac)} rest ${us(other)}`;
}

const entry = serveArgs();
const args = prof ? ['--cpu-prof', `--cpu-prof-dir=${prof}`, ...entry] : entry;
console.log('node', args.join(' '));
const product = await startProduct(
  { LOG_LEVEL: 'warn', RATE_LIMIT_DEFAULT_PER_MINUTE: '0', RATE_LIMIT_LOOKUP_PER_MINUTE: '0' },
  args,
);
try {
  const patient = await signedInPatient(product);
  const headers = { 'x-api-key': await apiKey(product), authorization: `Bearer ${patient.token}` };
  const eps = [
    { name: '/check', url: `${product.baseUrl}/api/linksteps/script/${patient.link.id}/check` },
    { name: '/patientinfo', url: `${product.baseUrl}/api/patients/patientinfo/${patient.link.id}` },
    { name: '/notoken', url: `${product.baseUrl}/api/patients/${patient.link.id}/notoken` },
  ].filter((e) => !only || only.includes(e.name));
  const link = await createLink(product);
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'scripts/bench/baseline-server.ts',
      String(port),
      product.env.DATABASE_URL!,
      process.env.DATABASE_POOL_MAX ?? '10',
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve) =>
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('baseline ready') && resolve()),
  );
  for (const e of eps) await fetch(e.url, { headers });
  // An unmeasured warm-up of each (the JIT and the pools settle first), as the bench does.
  const warm = (url: string, h: Record<string, string>) =>
    autocannon({ url, headers: h, connections: 200, duration: 3 });
  await warm(`http://127.0.0.1:${port}/link/${link.id}`, {});
  for (const e of eps) await warm(e.url, headers);
  try {
    for (let i = 0; i < rounds; i++) {
      console.log(`baseline      ${await load(`http://127.0.0.1:${port}/link/${link.id}`, {}, child.pid)}`);
      for (const e of eps) console.log(`${e.name.padEnd(13)} ${await load(e.url, headers, product.pid)}`);
    }
  } finally {
    child.kill('SIGTERM');
  }
} finally {
  await product.stop();
}
