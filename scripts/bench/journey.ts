/**
 * One whole deposit journey in headless Chromium against the built product on PostgreSQL (issue 30): the requests the
 * browser made (every page and frame: the app, the signing service, the sandbox gateway), the bytes it downloaded
 * (transfer sizes as Chromium's network log gives them: compressed bodies plus headers), and the SQL statements and
 * transactions PostgreSQL itself logged for it.
 *
 * Statements are counted from the server's own log: the product runs as a role of its own with `log_statement = all`
 * (ALTER ROLE, so no server restart and nothing else is logged), on a database of its own, and the bench reads the
 * lines between the journey's first and last request (log_line_prefix carries user@database). It needs the log file
 * to be readable (Debian: /var/log/postgresql/postgresql-<major>-main.log; `--pg-log=path` to name another) and a
 * superuser on DATABASE_URL; otherwise the statement figures are n/a and the bench says why.
 *
 * What is not the journey is taken out, and said: the test harness's reads of the sandbox outbox (to read the sign-in
 * code; their statements are measured on their own and subtracted) and the background workers' polls (the statements
 * seen while idle just before; see withoutPolls).
 */
import fs from 'node:fs';
import pg from 'pg';
import type { Request } from 'playwright-core';
import { launchBrowser } from '../../e2e/support/browser.js';
import { createLink, type TestLink } from '../../e2e/support/admin.js';
import { answerChallenge, CARDS, expectConfirmation, fillCard, payNow, type Flow } from '../../e2e/support/flows.js';
import { depositToPaymentPage } from '../../e2e/support/journeys.js';
import { PHONE } from '../../e2e/support/session.js';
import { loadConfig } from '../../apps/server/src/config.js';
import { startProduct } from './product.js';

export interface JourneyFigures {
  requests: number;
  transferKb: number;
  /** Per origin: requests and KB (app, signing service, gateway). */
  byOrigin: Record<string, { requests: number; kb: number }>;
  largest: { url: string; kb: number; encoding: string | null }[];
  /** Every response: its URL, bytes on the wire (headers + body as sent) and content-encoding. */
  transfers: { url: string; bytes: number; encoding: string | null }[];
  /** Statements PostgreSQL logged for the journey (harness and background polls taken out), or undefined when unreadable. */
  statements?: number;
  transactions?: number;
  /**
   * Of `statements`, those of the sandbox gateway (its own tables, and BEGIN/COMMIT of its transactions): it stands in
   * for Converge's servers, so a practice with a real gateway account never runs them on its database.
   */
  sandboxStatements?: number;
  /** Audit rows the journey wrote for its link (they must all stay, whatever the statements). */
  auditRows?: number;
  /** What was taken out, and the raw window. */
  statementNotes?: string;
  /** The most repeated statements (normalised text), printed. */
  repeated?: { count: number; sql: string }[];
  /** Every statement logged in the window (normalised text, with its count), in results.json. */
  logged?: { count: number; sql: string }[];
  seconds: number;
  /** The first journey on the freshly started process (the figures above are the second's). */
  firstJourney?: { requests: number; transferKb: number; statements?: number };
}

const ROLE = 'paylink_journey_bench';
const kb = (n: number) => Math.round((n / 1024) * 10) / 10;

/** The server log this PostgreSQL writes to (stderr to Debian's per-cluster file unless the collector runs). */
async function findLog(admin: pg.Client, given: string | undefined): Promise<{ file?: string; why?: string }> {
  if (given) return fs.existsSync(given) ? { file: given } : { why: `--pg-log=${given} does not exist` };
  const current = (await admin.query<{ f: string | null }>('select pg_current_logfile() as f')).rows[0]?.f;
  const dataDir = (await admin.query<{ d: string }>("select current_setting('data_directory') as d")).rows[0]!.d;
  const major = (await admin.query<{ v: string }>("select current_setting('server_version') as v")).rows[0]!.v.split(
    '.',
  )[0];
  const candidates = [
    current ? (current.startsWith('/') ? current : `${dataDir}/${current}`) : undefined,
    `/var/log/postgresql/postgresql-${major}-main.log`,
  ].filter((x): x is string => !!x);
  for (const c of candidates) {
    try {
      fs.accessSync(c, fs.constants.R_OK);
      return { file: c };
    } catch {
      /* next */
    }
  }
  return { why: `no readable server log (tried ${candidates.join(', ')}); pass --pg-log=path` };
}

interface Statement {
  sql: string;
  /** The backend that ran it (a transaction's statements share one). */
  pid: string;
}

/** The statements logged for `user@database` in the log's bytes from `from` on. */
function statementsSince(file: string, from: number, who: string): Statement[] {
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const buf = Buffer.alloc(Math.max(0, size - from));
    fs.readSync(fd, buf, 0, buf.length, from);
    const out: Statement[] = [];
    let current: Statement | undefined;
    // A statement's text runs on until the next line with a log prefix (multi-line SQL has none).
    const prefixed = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)? \S+ \[(\d+)\] /;
    for (const line of buf.toString('utf8').split('\n')) {
      if (prefixed.test(line)) {
        current = undefined;
        if (!line.includes(` ${who} `)) continue;
        const m = /LOG:\s+(?:statement|execute [^:]+):\s(.*)$/.exec(line);
        if (m) out.push((current = { sql: m[1]!, pid: prefixed.exec(line)![2]! }));
      } else if (current) current.sql += ` ${line.trim()}`;
    }
    return out;
  } finally {
    fs.closeSync(fd);
  }
}

const logSize = (file: string) => fs.statSync(file).size;
const isBegin = (s: Statement) => /^\s*(begin|start transaction)\b/i.test(s.sql);
const isEnd = (s: Statement) => /^\s*(commit|rollback|end)\b/i.test(s.sql);
const normalise = (sql: string) =>
  sql
    .replace(/\s+/g, ' ')
    .replace(/'[^']*'/g, "'…'")
    .trim()
    .slice(0, 140);

/**
 * The log in units: a statement outside a transaction alone, a transaction whole (BEGIN … COMMIT, its statements
 * matched by backend); a transaction still open at the end is a unit too.
 */
function units(all: Statement[]): Statement[][] {
  const open = new Map<string, Statement[]>();
  const out: Statement[][] = [];
  for (const s of all) {
    const tx = open.get(s.pid);
    if (isBegin(s)) open.set(s.pid, [s]);
    else if (tx) {
      tx.push(s);
      if (isEnd(s)) {
        open.delete(s.pid);
        out.push(tx);
      }
    } else out.push([s]);
  }
  return [...out, ...open.values()];
}
/** What a unit is made of: its statements without BEGIN and COMMIT. */
const inner = (u: Statement[]) => (u.length > 1 && isBegin(u[0]!) ? u.slice(1, isEnd(u.at(-1)!) ? -1 : undefined) : u);

/**
 * Takes out the background workers' polls (the statements seen while the product was idle: outbox, webhooks,
 * reconciliation..., and any worker's `skip locked` claim): each such statement alone, and each transaction made of
 * nothing else. What a poll then does for the journey (sending the receipt) stays counted.
 */
function withoutPolls(all: Statement[], polls: Set<string>): { kept: Statement[]; dropped: number } {
  // A worker's claim (`for update skip locked`: no request path uses it) is a poll even when the idle window missed it.
  const isPoll = (s: Statement) => polls.has(normalise(s.sql)) || /\bskip locked\b/i.test(s.sql);
  const kept: Statement[] = [];
  let dropped = 0;
  for (const u of units(all)) {
    const body = inner(u);
    // A transaction still open when the window closed stays counted: what it will do is not known yet.
    const whole = !isBegin(u[0]!) || isEnd(u.at(-1)!);
    if (whole && body.length > 0 && body.every(isPoll)) dropped += u.length;
    else kept.push(...u);
  }
  return { kept, dropped };
}

const isSandbox = (s: Statement) => /\bsandbox_gateway_/.test(s.sql);
/** The sandbox gateway's statements, with BEGIN and COMMIT of a transaction made of nothing else. */
function sandboxOnly(all: Statement[]): number {
  let n = 0;
  for (const u of units(all)) {
    const body = inner(u);
    const own = body.filter(isSandbox).length;
    n += own > 0 && own === body.length ? u.length : own;
  }
  return n;
}

/** Waits until the log has stopped growing for our role (the server writes asynchronously). */
async function settleLog(file: string): Promise<void> {
  let last = -1;
  for (let i = 0; i < 20; i++) {
    const now = logSize(file);
    if (now === last) return;
    last = now;
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The RATE_LIMIT_*_PER_MINUTE values a server started without them runs with. */
function productionRateLimits(): Record<string, string> {
  const defaults = loadConfig({});
  return Object.fromEntries(
    Object.entries(defaults)
      .filter(([k]) => /^RATE_LIMIT_\w+_PER_MINUTE$/.test(k))
      .map(([k, v]) => [k, String(v)]),
  );
}

export async function measureJourney(databaseUrl: string, opts: { pgLog?: string } = {}): Promise<JourneyFigures> {
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  const log = await findLog(admin, opts.pgLog);
  // A role of its own, logging every statement it runs: the product connects as it (and creates its database as it).
  await admin.query(`do $$ begin if not exists (select from pg_roles where rolname = '${ROLE}') then
    create role ${ROLE} login superuser; end if; end $$`);
  await admin.query(`alter role ${ROLE} set log_statement = 'all'`);
  await admin.end();
  const benchUrl = new URL(databaseUrl);
  benchUrl.username = ROLE;
  benchUrl.password = '';
  const saved = process.env.DATABASE_URL;
  process.env.DATABASE_URL = benchUrl.toString();
  // The product's own per-address limits, not the browser suite's raised ones: with PostgreSQL they decide how many
  // counter upserts a journey costs (decision 0229's leases), so the figure is the one a practice's server shows.
  // The messaging pass (reminders, the coordinator's "paid" notice) runs every 30 s, so it fell into some journeys and
  // not others (±15 statements run to run): the bench runs it hourly, out of the window. Its share for a paid link,
  // the coordinator's notice, is ~5 statements once per link, written down in docs/performance.md.
  const product = await startProduct({ ...productionRateLimits(), REMINDER_POLL_INTERVAL: '1h' });
  // Back to the caller's (an unset variable stays unset: `= undefined` would store the string "undefined").
  if (saved === undefined) delete process.env.DATABASE_URL;
  else process.env.DATABASE_URL = saved;
  const database = new URL(product.env.DATABASE_URL!).pathname.slice(1);
  const who = `${ROLE}@${database}`;

  // The harness's own reads of the outbox (sign-in code): counted, then measured alone and subtracted.
  let outboxReads = 0;
  const realFetch = globalThis.fetch;
  globalThis.fetch = (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (url.includes('/api/dev/outbox')) outboxReads++;
    return realFetch(input, init);
  };
  const browser = await launchBrowser();
  try {
    const link = await createLink(product);
    const polls = new Set<string>();
    let perOutboxRead = 0;
    if (log.file) {
      // What the background workers run while nothing happens (5 s), and one outbox read alone.
      await settleLog(log.file);
      const t0 = logSize(log.file);
      await new Promise((r) => setTimeout(r, 5000));
      await settleLog(log.file);
      for (const st of statementsSince(log.file, t0, who)) {
        if (!isBegin(st) && !isEnd(st)) polls.add(normalise(st.sql));
      }
      const t1 = logSize(log.file);
      await realFetch(`${product.baseUrl}/api/dev/outbox?to=${encodeURIComponent(link.phone)}`).then((r) => r.text());
      await settleLog(log.file);
      perOutboxRead = withoutPolls(statementsSince(log.file, t1, who), polls).kept.length;
    }

    // One journey: a new browser (cold cache) on a new link, the server as it is.
    const journey = async (link: TestLink): Promise<JourneyFigures> => {
      const context = await browser.newContext({ viewport: PHONE });
      const page = await context.newPage();
      const done: Promise<{ url: string; bytes: number; encoding: string | null } | undefined>[] = [];
      const onDone = (request: Request) => {
        done.push(
          (async () => {
            const url = new URL(request.url());
            if (url.protocol === 'data:' || url.protocol === 'blob:') return undefined;
            const sizes = await request.sizes().catch(() => undefined);
            const response = await request.response().catch(() => null);
            const encoding = (await response?.headerValue('content-encoding').catch(() => null)) ?? null;
            // Chromium reports a dedicated worker's script (pdf.js's worker) with its headers only: the body's length
            // as sent (content-length, compressed) is the larger figure there, and the same elsewhere.
            const sent = Number((await response?.headerValue('content-length').catch(() => null)) ?? 0);
            // No headers on the wire: served from the memory cache, nothing downloaded.
            const headers = sizes?.responseHeadersSize ?? 0;
            const body = headers ? Math.max(sizes?.responseBodySize ?? 0, response?.status() === 304 ? 0 : sent) : 0;
            return {
              url: `${url.origin}${url.pathname}`,
              bytes: headers + body,
              encoding,
            };
          })(),
        );
      };
      const timeline: string[] = [];
      if (process.env.JOURNEY_TIMELINE)
        context.on('request', (r) =>
          timeline.push(`${new Date().toISOString()} REQUEST ${r.method()} ${r.url().slice(0, 120)}`),
        );
      context.on('requestfinished', onDone);
      context.on('requestfailed', onDone);

      const from = log.file ? logSize(log.file) : 0;
      outboxReads = 0;
      const start = performance.now();
      const f: Flow = { page, product, link, lng: 'en' };
      await depositToPaymentPage(f);
      await fillCard(f, { number: CARDS.challenge });
      await payNow(f);
      await answerChallenge(f, 'authenticate');
      await expectConfirmation(f, { amount: '$500.00' });
      await page.waitForLoadState('networkidle').catch(() => undefined);
      // The receipt is sent by the outbox worker just after: part of the journey.
      await new Promise((r) => setTimeout(r, 2000));
      const seconds = (performance.now() - start) / 1000;
      context.off('requestfinished', onDone);
      context.off('requestfailed', onDone);
      if (process.env.JOURNEY_TIMELINE) fs.writeFileSync(process.env.JOURNEY_TIMELINE, `${timeline.join('\n')}\n`);
      const transfers = (await Promise.all(done)).filter((t): t is NonNullable<typeof t> => !!t);
      await context.close();

      const origins: Record<string, string> = {
        [new URL(product.baseUrl).origin]: 'app',
        [new URL(product.signOrigin).origin]: 'signing',
        [new URL(product.gatewayOrigin).origin]: 'gateway',
      };
      const byOrigin: JourneyFigures['byOrigin'] = {};
      for (const t of transfers) {
        const o = origins[new URL(t.url).origin] ?? new URL(t.url).origin;
        const e = (byOrigin[o] ??= { requests: 0, kb: 0 });
        e.requests++;
        e.kb = Math.round((e.kb + t.bytes / 1024) * 10) / 10;
      }
      const figures: JourneyFigures = {
        requests: transfers.length,
        transferKb: kb(transfers.reduce((a, t) => a + t.bytes, 0)),
        byOrigin,
        transfers,
        largest: [...transfers]
          .sort((a, b) => b.bytes - a.bytes)
          .slice(0, 8)
          .map((t) => ({ url: t.url, kb: kb(t.bytes), encoding: t.encoding })),
        seconds: Math.round(seconds * 10) / 10,
      };
      if (log.file) {
        await settleLog(log.file);
        const logged = statementsSince(log.file, from, who);
        const { kept: all, dropped } = withoutPolls(logged, polls);
        const harness = outboxReads * perOutboxRead;
        figures.statements = all.length - harness;
        figures.transactions = all.filter(isBegin).length;
        figures.sandboxStatements = sandboxOnly(all);
        figures.statementNotes =
          `logged ${logged.length}, less ${dropped} of background polls and ${harness} for the harness's ` +
          `${outboxReads} outbox reads`;
        const counts = new Map<string, number>();
        for (const s of all) counts.set(normalise(s.sql), (counts.get(normalise(s.sql)) ?? 0) + 1);
        figures.logged = [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([sql, count]) => ({ count, sql }));
        figures.repeated = figures.logged.filter((x) => x.count > 1).slice(0, 15);
      } else figures.statementNotes = `n/a: ${log.why}`;
      // Every read and change of the patient's data writes an audit row: fewer statements must not mean fewer rows.
      // Read as the caller's role (not logged), in the product's database.
      const auditUrl = new URL(databaseUrl);
      auditUrl.pathname = `/${database}`;
      const audit = new pg.Client({ connectionString: auditUrl.toString() });
      await audit.connect();
      try {
        const r = await audit.query<{ n: number }>('select count(*)::int as n from audit_event where link_id = $1', [
          link.id,
        ]);
        figures.auditRows = r.rows[0]!.n;
      } finally {
        await audit.end();
      }
      return figures;
    };
    // The first journey of a fresh process also pays for what a process does once (secrets read, settings copied,
    // pdf.js compressed): kept as information; the figures are the next journey's, as every later patient sees it.
    const first = await journey(link);
    const figures = await journey(await createLink(product));
    figures.firstJourney = { requests: first.requests, transferKb: first.transferKb, statements: first.statements };
    return figures;
  } finally {
    globalThis.fetch = realFetch;
    await browser.close();
    await product.stop();
    // The role goes with its database (it owned nothing else).
    const admin2 = new pg.Client({ connectionString: databaseUrl });
    await admin2.connect();
    await admin2.query(`drop role if exists ${ROLE}`).catch(() => undefined);
    await admin2.end();
  }
}
