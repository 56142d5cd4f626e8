/**
 * The console at a practice group's size (issue 30; decision 0228): 100,000 and 1,000,000 links on a PostgreSQL
 * server, every console call timed over real HTTP against the product's server as `npm run serve` starts it.
 *
 * - One database per size on DATABASE_URL's server (default postgres://postgres@127.0.0.1:5432/postgres):
 *   `paylink_bench_console_100k`, `paylink_bench_console_1m`. Migrated by the product's own migrations, then seeded
 *   in SQL at a group's rate: 5,000 links a day over the last N / 5,000 days (100k = 20 days, 1M = 200 days), with
 *   the proportions of the 10k bench before it (6 steps each, a random 0-6 completed; half sent, a third opened, a
 *   quarter signed in with a patient_session row, a tenth with a payment, 7 in 10 of those approved) and 50
 *   coordinators. Plain INSERTs into the product's tables, 50,000 links per transaction: the tables' triggers (the
 *   milestones other work keeps per link) run as they do for the product's own writes.
 * - The seeded database is kept: a `bench_console_seed` row records the seed's version, size and the last migration
 *   it was seeded under. A run reuses it when all three match (the server's start applies newer migrations, which
 *   then must fill what they add themselves) unless `--reseed`.
 * - The server: `node <serveArgs()>` (scripts/server-entry.mjs: the compiled server when the build is current, else
 *   the sources through tsx, with npm run serve's V8 flags), sandbox mode, no demo links, DATABASE_URL = the bench
 *   database. Each call: one warm-up, then 5 timed runs (the whole body read); the median is reported. The server's
 *   RSS (/proc/<pid>/status VmRSS) is read just before a call's first run and every 10 ms while it runs: before and
 *   peak are reported for the funnel and the exports (the goal's figure), with the RSS just after the warm-up run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openPostgres, type Db } from '../../apps/server/src/db/client.js';
import { migrate, MIGRATIONS_DIR } from '../../apps/server/src/db/migrate.js';
import { staffToken } from '../../apps/server/src/seed/seed-staff.js';
import { freePort } from '../../apps/server/test/support/ports.js';
import { isBuilt, SERVE_ENV, serveArgs } from '../server-entry.mjs';
import { rssMb } from './product.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** Bump when the seed's shape changes: a kept database of another version is seeded again. */
const SEED_VERSION = 1;
const PER_DAY = 5000;
const CHUNK = 50_000;
const COORDINATORS = 50;
const RUNS = 5;

export interface ConsoleCall {
  name: string;
  url: string;
  goal: string;
  medianMs: number;
  runsMs: number[];
  status: number;
  bytes: number;
  rssBeforeMb?: number;
  rssPeakMb?: number;
  /**
   * RSS just after the warm-up run. Shown beside the goal's figure, not instead of it: a server that rested a few
   * seconds has had V8 release its young generation's pages (~64 MB committed under `--max-semi-space-size=32`,
   * decision 0183), and the first call that allocates refills them whatever it holds (docs/performance.md, issue 30).
   */
  rssAfterWarmUpMb?: number;
  /** Whether the median (and for the memory-bound calls the RSS growth) meets the goal. */
  ok: boolean;
}

export interface ConsoleFigure {
  links: number;
  days: number;
  database: string;
  seeded: 'now' | 'kept';
  seedMs: number | null;
  seededAt: string;
  server: 'compiled' | 'sources (tsx)';
  loadAvg: number[];
  cpus: number;
  serverIdleRssMb: number | undefined;
  calls: ConsoleCall[];
}

export const sizeLabel = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}m` : `${Math.round(n / 1000)}k`);

/** The bench database's URL on the server of `baseUrl`. */
function databaseUrl(baseUrl: string, name: string): string {
  const u = new URL(baseUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

function lastMigration(): string {
  return fs
    .readdirSync(MIGRATIONS_DIR)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .at(-1)!;
}

interface Seed {
  version: number;
  links: number;
  migration: string;
  seeded_at: Date;
  seed_ms: number;
}

async function readSeed(db: Db): Promise<Seed | undefined> {
  const t = await db.query(`select to_regclass('bench_console_seed') is not null as present`);
  if (!(t.rows[0] as { present: boolean }).present) return undefined;
  return (await db.query<Seed>('select * from bench_console_seed')).rows[0];
}

/**
 * N links in SQL, newest first: link i was created (i - 1) / 5000 days and a bit before the anchor. Every other
 * table's rows follow from the link's number and a hash of its id, so each chunk is written by a few INSERT ... SELECTs
 * over the same series.
 */
async function seed(db: Db, links: number, log: (s: string) => void): Promise<number> {
  const t0 = performance.now();
  const coordinators: string[] = [];
  for (let c = 1; c <= COORDINATORS; c++) {
    await staffToken(db, { email: `bench-coordinator-${c}@example.com`, role: 'coordinator' });
  }
  coordinators.push(
    ...(
      await db.query<{ id: string }>(
        `select id from staff_user where email like 'bench-coordinator-%@example.com' order by email`,
      )
    ).rows.map((r) => r.id),
  );
  const anchor = new Date();
  // The series of one chunk: the link's number, id, creation time and hash.
  const series = `(select i, id, created_at, abs(hashtext(id)) as h from (
      select i, 'bench' || lpad(i::text, 20, '0') as id,
        $3::timestamptz - ((i - 1) / ${PER_DAY}) * interval '1 day'
          - ((i - 1) % ${PER_DAY}) * (interval '1 day' / ${PER_DAY}) as created_at
      from generate_series($1::int, $2::int) i) x) s`;
  for (let lo = 1; lo <= links; lo += CHUNK) {
    const hi = Math.min(links, lo + CHUNK - 1);
    await db.transaction(async (tx) => {
      await tx.query(
        `insert into link (id, first_name, last_name, address, city, state, zip_code, phone, email,
           procedure_description, sign_in_method, language, expires_at, created_at, created_by)
         select id, 'Pat' || i, 'Lopez' || (i % 97), '1 Main St', 'Austin', 'Texas', '73301',
           '512555' || lpad((i % 10000)::text, 4, '0'), 'p' || i || '@example.com', 'Consultation', 'sms', 'en',
           now() + interval '7 days', created_at, ($4::uuid[])[1 + i % ${COORDINATORS}]
         from ${series}`,
        [lo, hi, anchor, coordinators],
      );
      await tx.query(
        `insert into link_step (link_id, position, route_path, status_id, completed_at)
         select s.id, r.pos, r.route, case when r.pos <= s.h % 7 then 4 else 1 end,
           case when r.pos <= s.h % 7 then s.created_at + r.pos * interval '1 hour' end
         from ${series} cross join (values (1, '/patientinfo'), (2, '/patientinvoicedetail'), (3, '/patientiddocs'),
           (4, '/patientcontract'), (5, '/paymentauthorization'), (6, '/confirmation')) r(pos, route)`,
        [lo, hi, anchor],
      );
      await tx.query(
        `insert into audit_event (at, actor_type, action, link_id)
         select created_at, 'staff', 'link.created', id from ${series}
         union all select created_at + interval '1 minute', 'staff', 'link.sent', id from ${series} where h % 2 = 0
         union all select created_at + interval '2 hours', 'link', 'patient.phone_lookup', id from ${series}
           where h % 3 = 0
         union all select created_at + interval '3 hours', 'link', 'step.completed', id from ${series}
           where h % 3 = 0`,
        [lo, hi, anchor],
      );
      await tx.query(
        `insert into patient_session (link_id, method, created_at, expires_at)
         select id, 'sms', created_at + interval '2 hours 5 minutes', created_at + interval '1 day'
         from ${series} where h % 3 = 0 and h % 4 <> 3`,
        [lo, hi, anchor],
      );
      await tx.query(
        `insert into payment (link_id, payment_type_id, payment_source_id, amount_cents, status, transaction_id,
           approval_code, card_brand, card_last4, paid_at, created_at)
         select id, 1, 1, 50000 + (i % 50) * 1000, case when paid then 'approved' else 'chosen' end,
           case when paid then 'BTX' || i end, case when paid then 'A' || (i % 100000) end,
           case when paid then 'VISA' end, case when paid then lpad((i % 10000)::text, 4, '0') end,
           case when paid then created_at + interval '6 hours' end, created_at + interval '5 hours'
         from (select *, (h / 10) % 10 < 7 as paid from ${series} where h % 10 = 0) p`,
        [lo, hi, anchor],
      );
    });
    log(`  seeded ${hi.toLocaleString('en-US')} of ${links.toLocaleString('en-US')} links`);
  }
  // The seed's triggers rewrite each link_progress row several times (~2M dead rows at 1M links). A live database's
  // autovacuum clears them as they come; a bulk seed leaves them for a pass that may not have run when the bench
  // starts, and the board's counts then scan three times the table. Vacuumed here, as a year of use would leave it.
  await db.exec('vacuum analyze');
  return Math.round(performance.now() - t0);
}

/** The bench database for `links`, migrated and seeded (or kept from an earlier run). */
async function prepare(baseUrl: string, links: number, reseed: boolean, log: (s: string) => void) {
  const name = `paylink_bench_console_${sizeLabel(links)}`;
  const url = databaseUrl(baseUrl, name);
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    const exists = (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount! > 0;
    let db = openPostgres(url);
    try {
      const kept = exists ? await readSeed(db) : undefined;
      const migration = lastMigration();
      const fits =
        kept && kept.version === SEED_VERSION && kept.links === links && kept.migration === migration && !reseed;
      if (fits) return { url, name, seeded: 'kept' as const, seedMs: null, seededAt: new Date(kept.seeded_at) };
      if (exists) {
        log(
          `  ${name}: ${
            reseed
              ? '--reseed'
              : kept
                ? `seeded as v${kept.version}, ${kept.links} links, ${kept.migration}: seeding again`
                : 'no finished seed: seeding again'
          }`,
        );
        await db.close();
        await admin.query(`drop database ${name} with (force)`);
      }
      await admin.query(`create database ${name}`);
      db = openPostgres(url);
      await migrate(db);
      log(`  ${name}: migrated (${migration}); seeding ${links.toLocaleString('en-US')} links in SQL...`);
      const seedMs = await seed(db, links, log);
      // Written last: a seed that stopped half way has no row and is redone.
      await db.exec(`create table bench_console_seed (version int not null, links int not null, migration text not null,
        seeded_at timestamptz not null, seed_ms int not null)`);
      await db.query('insert into bench_console_seed values ($1, $2, $3, now(), $4)', [
        SEED_VERSION,
        links,
        migration,
        seedMs,
      ]);
      return { url, name, seeded: 'now' as const, seedMs, seededAt: new Date() };
    } finally {
      await db.close();
    }
  } finally {
    await admin.end();
  }
}

interface Server {
  baseUrl: string;
  child: ChildProcess;
  dataDir: string;
  output: () => string;
}

/** The product's server as `npm run serve` starts it, on the bench database. */
async function startServer(url: string): Promise<Server> {
  const [port, signPort, gatewayPort] = [await freePort(), await freePort(), await freePort()];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'paylink-bench-console-'));
  const child = spawn(process.execPath, serveArgs(), {
    cwd: ROOT,
    env: {
      ...process.env,
      ...SERVE_ENV,
      DATABASE_URL: url,
      PORT: String(port),
      SIGN_PORT: String(signPort),
      GATEWAY_PORT: String(gatewayPort),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      SIGN_ORIGIN: `http://127.0.0.1:${signPort}`,
      GATEWAY_ORIGIN: `http://127.0.0.1:${gatewayPort}`,
      PAYLINK_DATA_DIR: dataDir,
      PAYLINK_MODE: 'sandbox',
      PAYLINK_DEMO_LINKS: 'false',
      RATE_LIMIT_DEFAULT_PER_MINUTE: '100000',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The server exited during start:\n${output}`);
    try {
      if ((await fetch(`${baseUrl}/healthz`)).ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`The server did not answer /healthz within 120 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { baseUrl, child, dataDir, output: () => output };
}

async function stopServer(s: Server) {
  if (s.child.exitCode === null && s.child.signalCode === null) {
    const exited = new Promise((r) => s.child.once('exit', r));
    s.child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
  }
  fs.rmSync(s.dataDir, { recursive: true, force: true });
}

/** One GET, its body read to the end (counted, not kept). */
async function timedGet(url: string, headers: Record<string, string>) {
  const s = performance.now();
  const r = await fetch(url, { headers });
  let bytes = 0;
  if (r.body) for await (const chunk of r.body) bytes += (chunk as Uint8Array).byteLength;
  return { ms: performance.now() - s, status: r.status, bytes };
}

const day = (d: Date) => d.toISOString().slice(0, 10);

export async function measureConsole(opts: {
  links: number;
  /** A PostgreSQL server's URL (its own database is only used to create the bench's). */
  databaseUrl: string;
  reseed?: boolean;
  log?: (s: string) => void;
}): Promise<ConsoleFigure> {
  const log = opts.log ?? ((s: string) => console.log(s));
  const links = opts.links;
  const days = Math.ceil(links / PER_DAY);
  const prepared = await prepare(opts.databaseUrl, links, opts.reseed ?? false, log);
  if (prepared.seedMs !== null) log(`  seeded in ${(prepared.seedMs / 1000).toFixed(1)} s`);
  else log(`  ${prepared.name}: kept from ${prepared.seededAt.toISOString()} (--reseed to seed again)`);

  const db = openPostgres(prepared.url);
  let token: string;
  let detailId: string;
  try {
    token = await staffToken(db, { email: 'bench-admin@example.com', role: 'admin' });
    // A paid link from the middle of the range, for the link page.
    detailId = (
      await db.query<{ link_id: string }>(
        `select link_id from payment where status = 'approved' and link_id >= $1 order by link_id limit 1`,
        [`bench${String(Math.floor(links / 2)).padStart(20, '0')}`],
      )
    ).rows[0]!.link_id;
  } finally {
    await db.close();
  }

  const server = await startServer(prepared.url);
  try {
    const headers = { authorization: `Bearer ${token}`, 'x-api-key': 'paylink-sandbox-api-key' };
    const pid = server.child.pid;
    await new Promise((r) => setTimeout(r, 1000));
    const serverIdleRssMb = rssMb(pid);
    const now = new Date();
    const since = new Date(now.getTime() - 60_000).toISOString();
    const thirty = day(new Date(now.getTime() - 29 * 86400_000));
    // The bookkeeping exports take at most 366 days: the whole seeded range (200 days at 1M).
    const first = day(new Date(now.getTime() - (days + 1) * 86400_000));
    const calls: { name: string; url: string; goal: string; limitMs: number; memory?: boolean }[] = [
      { name: 'board, first page', url: '/api/admin/board?limit=25', goal: '≤ 500 ms', limitMs: 500 },
      { name: 'board, search by name', url: '/api/admin/board?q=Pat123&limit=25', goal: '≤ 200 ms', limitMs: 200 },
      {
        name: 'board, state + step filter',
        url: '/api/admin/board?status=active&step=contract&limit=25',
        goal: '≤ 200 ms',
        limitMs: 200,
      },
      { name: 'board, page 200', url: '/api/admin/board?limit=25&offset=4975', goal: '≤ 500 ms', limitMs: 500 },
      {
        name: 'board, live-update poll',
        url: `/api/admin/board/changes?since=${encodeURIComponent(since)}`,
        goal: '≤ 500 ms',
        limitMs: 500,
      },
      {
        name: 'funnel, 30 days',
        url: '/api/admin/funnel',
        goal: '≤ 1000 ms, memory flat',
        limitMs: 1000,
        memory: true,
      },
      { name: 'link detail', url: `/api/admin/links/${detailId}/detail`, goal: '≤ 500 ms', limitMs: 500 },
      {
        name: 'payments report, 30 days',
        url: `/api/admin/payments/report?from=${thirty}&to=${day(now)}`,
        goal: '≤ 500 ms',
        limitMs: 500,
      },
      {
        name: 'CSV: console payments, all',
        url: '/api/admin/payments/export',
        goal: 'RSS ≤ +50 MB',
        limitMs: Infinity,
        memory: true,
      },
      {
        name: 'CSV: all links (bookkeeping)',
        url: `/api/admin/exports/links.csv?from=${first}&to=${day(now)}`,
        goal: 'RSS ≤ +50 MB',
        limitMs: Infinity,
        memory: true,
      },
      {
        name: 'CSV: payments (bookkeeping)',
        url: `/api/admin/exports/payments.csv?from=${first}&to=${day(now)}`,
        goal: 'RSS ≤ +50 MB',
        limitMs: Infinity,
        memory: true,
      },
    ];
    const out: ConsoleCall[] = [];
    for (const c of calls) {
      const rssBeforeMb = rssMb(pid);
      let rssAfterWarmUpMb: number | undefined;
      let rssPeakMb = rssBeforeMb ?? 0;
      const sampler = setInterval(() => (rssPeakMb = Math.max(rssPeakMb, rssMb(pid) ?? 0)), 10);
      const runsMs: number[] = [];
      let status = 0;
      let bytes = 0;
      try {
        for (let i = 0; i <= RUNS; i++) {
          const r = await timedGet(server.baseUrl + c.url, headers);
          status = r.status;
          bytes = r.bytes;
          if (i > 0) runsMs.push(Math.round(r.ms));
          else rssAfterWarmUpMb = rssMb(pid);
        }
      } finally {
        clearInterval(sampler);
      }
      rssPeakMb = Math.max(rssPeakMb, rssMb(pid) ?? 0);
      const medianMs = [...runsMs].sort((a, b) => a - b)[Math.floor(runsMs.length / 2)]!;
      const grew = rssBeforeMb === undefined ? 0 : rssPeakMb - rssBeforeMb;
      const ok = status === 200 && medianMs <= c.limitMs && (!c.memory || grew <= 50);
      out.push({
        name: c.name,
        url: c.url,
        goal: c.goal,
        medianMs,
        runsMs,
        status,
        bytes,
        ...(c.memory ? { rssBeforeMb, rssPeakMb, rssAfterWarmUpMb } : {}),
        ok,
      });
      log(
        `  ${c.name.padEnd(30)} ${String(medianMs).padStart(7)} ms  ${status}` +
          (c.memory ? `  RSS ${rssBeforeMb} → ${rssPeakMb} MB (${rssAfterWarmUpMb} after the warm-up)` : '') +
          (bytes > 100_000 ? `  ${(bytes / 2 ** 20).toFixed(1)} MiB` : ''),
      );
    }
    return {
      links,
      days,
      database: prepared.name,
      seeded: prepared.seeded,
      seedMs: prepared.seedMs,
      seededAt: prepared.seededAt.toISOString(),
      server: isBuilt() ? 'compiled' : 'sources (tsx)',
      loadAvg: os.loadavg().map((x) => Math.round(x * 100) / 100),
      cpus: os.cpus().length,
      serverIdleRssMb,
      calls: out,
    };
  } catch (err) {
    log(server.output());
    throw err;
  } finally {
    await stopServer(server);
  }
}

/** The figures of every size side by side, with the goal of each call and the machine's load during each size. */
export function consoleTable(figures: ConsoleFigure[]): string {
  const cell = (c: ConsoleCall | undefined) =>
    !c
      ? 'n/a'
      : `${c.status === 200 ? `${c.medianMs} ms` : `HTTP ${c.status}`}${
          c.rssBeforeMb !== undefined ? ` (${c.rssBeforeMb}→${c.rssPeakMb} MB; ${c.rssAfterWarmUpMb} warm)` : ''
        }${c.ok ? '' : ' ✗'}`;
  const head = ['call', ...figures.map((f) => `${sizeLabel(f.links)} links (${f.days} days)`), 'goal'];
  const rows = figures[0]!.calls.map((c) => [
    c.name,
    ...figures.map((f) => cell(f.calls.find((x) => x.name === c.name))),
    c.goal,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((x, i) => x.padEnd(widths[i]!)).join('  ');
  return [
    line(head),
    ...rows.map(line),
    ...figures.map(
      (f) =>
        `${sizeLabel(f.links)}: ${f.database}, seed ${f.seeded === 'now' ? `now, ${(f.seedMs! / 1000).toFixed(1)} s` : `kept (${f.seededAt})`}; ` +
        `server ${f.server}, idle RSS ${f.serverIdleRssMb} MB; load average ${f.loadAvg.join(' ')} on ${f.cpus} CPUs`,
    ),
    'Times: median of 5 after a warm-up, whole body read. (a→b MB; c warm): server RSS before the call, its peak ' +
      'during it (the goal compares these two) and the RSS just after the warm-up run.',
  ].join('\n');
}
