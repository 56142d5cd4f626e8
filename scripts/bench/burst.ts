/**
 * A diagnostic beside `npm run bench` (issue 17, decision 0175): starts the product on PGlite as `npm run serve` does,
 * signs a patient in, then opens N connections at once (as autocannon does) and times every request, printing the
 * slowest with their connection and whether each was that connection's first request, and the server's CPU time
 * per request (steadier than requests/s on a shared machine).
 *   node --import tsx scripts/bench/burst.ts [--path=patientinfo|check|notoken|healthz] [--connections=50]
 *     [--seconds=5] [--rounds=2] [--node-args="--cpu-prof --cpu-prof-dir=/tmp/prof"]
 */
import fs from 'node:fs';
import http from 'node:http';
import { apiKey, rssMb, signedInPatient, startProduct } from './product.js';
import { serveArgs } from '../server-entry.mjs';

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const connections = Number(arg('connections') ?? 50);
const seconds = Number(arg('seconds') ?? 5);
const rounds = Number(arg('rounds') ?? 2);
const which = arg('path') ?? 'patientinfo';
const nodeArgs = (arg('node-args') ?? '').split(' ').filter(Boolean);

/** utime + stime of a process in ms (Linux: 100 clock ticks a second). */
function cpuMs(pid: number | undefined): number {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}

/** One client connection: requests back to back until the deadline. */
async function connection(url: URL, headers: Record<string, string>, end: number, t0: number, conn: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const log: { conn: number; n: number; start: number; ms: number }[] = [];
  try {
    for (let n = 0; performance.now() < end; n++) {
      const start = performance.now();
      await new Promise<void>((resolve, reject) => {
        const req = http.request(url, { agent, headers }, (res) => res.resume().on('end', resolve));
        req.on('error', reject).end();
      });
      log.push({ conn, n, start: start - t0, ms: performance.now() - start });
    }
  } finally {
    agent.destroy();
  }
  return log;
}

const product = await startProduct(
  { LOG_LEVEL: 'warn', RATE_LIMIT_DEFAULT_PER_MINUTE: '0', RATE_LIMIT_LOOKUP_PER_MINUTE: '0' },
  [...nodeArgs, ...serveArgs()],
);
try {
  const patient = await signedInPatient(product);
  const headers = { 'x-api-key': await apiKey(product), authorization: `Bearer ${patient.token}` };
  const paths: Record<string, string> = {
    healthz: '/healthz',
    patientinfo: `/api/patients/patientinfo/${patient.link.id}`,
    check: `/api/linksteps/script/${patient.link.id}/check`,
    notoken: `/api/patients/${patient.link.id}/notoken`,
  };
  const url = new URL(product.baseUrl + paths[which]!);
  const first = await fetch(url, { headers });
  if (!first.ok) throw new Error(`${url.pathname} answered ${first.status}`);
  await new Promise((r) => setTimeout(r, 2000));
  console.log(`idle RSS ${rssMb(product.pid)} MB`);
  for (let round = 0; round < rounds; round++) {
    const cpu0 = cpuMs(product.pid);
    const t0 = performance.now();
    const conns = Array.from({ length: connections }, (_, c) => connection(url, headers, t0 + seconds * 1000, t0, c));
    const log = (await Promise.all(conns)).flat().sort((a, b) => b.ms - a.ms);
    const at = (p: number) => log[Math.floor((log.length - 1) * (1 - p))]!.ms.toFixed(0);
    const slow = log.filter((l) => l.ms > 1000);
    console.log(
      `round ${round} ${url.pathname}: ${log.length} requests, ${Math.round(log.length / seconds)} req/s, ` +
        `server CPU ${((cpuMs(product.pid) - cpu0) / log.length).toFixed(2)} ms/request, p50 ${at(0.5)} p99 ${at(0.99)} ` +
        `max ${at(1)} ms; over 1 s: ${slow.length} (${slow.filter((l) => l.n === 0).length} first on their connection)`,
    );
    for (const l of log.slice(0, 5))
      console.log(`  conn ${l.conn} request ${l.n}: sent at ${l.start.toFixed(0)} ms, took ${l.ms.toFixed(0)} ms`);
  }
  console.log(`RSS after ${rssMb(product.pid)} MB`);
} finally {
  await product.stop();
}
