import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { restoreTemplate } from './pglite-template.js';

/** The smallest surface both PGlite and node-postgres give us: parameterised queries and transactions. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[], options?: QueryOptions): Promise<QueryResult<T>>;
}
export interface QueryOptions {
  /**
   * A statement of fixed text run on every request (the patient reads): on a PostgreSQL server it is prepared once
   * per connection under a name taken from its text, so later runs send only the parameters and reuse the plan.
   * Ignored by PGlite (one in-process connection, nothing on the wire).
   */
  prepared?: boolean;
  /**
   * A short statement that requests wait for (the audit batch's insert, decision 0179): on a PostgreSQL server it runs
   * on a connection of its own instead of queueing behind the pool's waiting statements. Ignored by PGlite (one
   * connection: going first there would make every batch one row; waiting its turn lets the rows gather).
   */
  priority?: boolean;
}
export interface QueryResult<T> {
  rows: T[];
  rowCount: number;
}
/** Inside a transaction: queries, and whole multi-statement scripts (a migration file) with no parameters. */
export interface Transaction extends Queryable {
  exec(sql: string): Promise<void>;
}

export interface TransactionOptions {
  /**
   * Runs fn again, in a new transaction, when PostgreSQL aborts it as a deadlock victim (40P01) or a serialisation
   * failure (40001), a few times with a short random pause (decision 0238). Opt in only where fn does nothing but
   * database work (no gateway call, no message sent, no state kept outside it): it may run more than once. When the
   * tries are used up the caller gets DatabaseUnavailableError (503, safe to retry), never a 500.
   */
  retryConflicts?: boolean;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs fn in one transaction; rolls back when fn throws. */
  transaction<T>(fn: (tx: Transaction) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** Multi-statement SQL (migrations). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}

// int8 (bigint) and numeric come back as strings from node-postgres; we keep money in int4 cents and
// ids in int4/text so both drivers return the same JS types.

/**
 * The database cannot be reached (server restarting, connection killed, network gone). The database layer's own
 * error (it knows nothing of HTTP); the error handlers answer it 503 `database_unavailable`: the request changed
 * nothing it acknowledged and is safe to retry.
 */
export class DatabaseUnavailableError extends Error {
  readonly code = 'database_unavailable';
  constructor(cause?: unknown) {
    super('The service is briefly unavailable. Please try again in a moment.', { cause });
    this.name = 'DatabaseUnavailableError';
  }
}

/**
 * SQLSTATE classes and socket errors that mean "the connection is gone", not "the query is wrong". 08P01 is what
 * PgBouncer answers when it drops a client: its server connection died, no server connection came within
 * query_wait_timeout, the database was paused or killed (decision 0227).
 */
const CONNECTION_SQLSTATES = new Set([
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '08000',
  '08003',
  '08006',
  '08001',
  '08004',
  '08P01',
]);
const CONNECTION_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH']);
function isConnectionError(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  if (err instanceof DatabaseUnavailableError) return true;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (CONNECTION_SQLSTATES.has(code) || CONNECTION_ERRNOS.has(code))) return true;
  const message = (err as { message?: unknown }).message;
  return (
    typeof message === 'string' &&
    /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|Client was closed/i.test(
      message,
    )
  );
}

const unavailableOr = (err: unknown) => (isConnectionError(err) ? new DatabaseUnavailableError(err) : err);

/** A transaction PostgreSQL aborted so that another could go on: running it again is the cure (decision 0238). */
const CONFLICT_SQLSTATES = new Set(['40001', '40P01']);
const isConflict = (err: unknown) =>
  !!err && typeof err === 'object' && CONFLICT_SQLSTATES.has((err as { code?: unknown }).code as string);
/** Tries of a transaction that opted in to retryConflicts. */
export const CONFLICT_TRIES = 5;

/** The one place that runs a transaction again after a deadlock or a serialisation failure. */
async function retryingConflicts<T>(once: () => Promise<T>, options: TransactionOptions | undefined): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await once();
    } catch (err) {
      if (!options?.retryConflicts || !isConflict(err)) throw err;
      if (attempt >= CONFLICT_TRIES) throw new DatabaseUnavailableError(err);
      // A random pause, longer each time, so the transactions that collided do not collide again in step.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * 2 ** attempt));
    }
  }
}

/**
 * db.transaction(fn, { retryConflicts: true }) for fn that is database work only (decision 0238): fn runs again after a
 * deadlock or serialisation failure. The callback last, as for db.transaction.
 */
export function retryingTransaction<T>(db: Db, fn: (tx: Transaction) => Promise<T>): Promise<T> {
  return db.transaction(fn, { retryConflicts: true });
}

/** The database each open transaction runs on (per-process caches key on the database, not on one transaction). */
const owners = new WeakMap<Queryable, Db>();

/** The database `q` runs on: itself for a database, the owning database for a transaction. */
export function databaseOf(q: Queryable): Queryable {
  return owners.get(q) ?? q;
}

/** True when `q` is a transaction: what it writes may still roll back. */
export function inTransaction(q: Queryable): boolean {
  return owners.has(q);
}

/** One name per statement text: the same name with another text on one connection is an error in node-postgres. */
const statementNames = new Map<string, string>();
export function statementName(sql: string): string {
  let name = statementNames.get(sql);
  if (!name) {
    name = `paylink_${createHash('sha256').update(sql).digest('hex').slice(0, 24)}`;
    statementNames.set(sql, name);
  }
  return name;
}

function newPool(url: string, max: number): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    // While the server is down, fail a request in seconds (503) instead of queueing it for ever.
    connectionTimeoutMillis: 5000,
    keepAlive: true,
  });
  pool.on('error', () => {
    /* a broken idle client is dropped by the pool; queries report their own errors */
  });
  return pool;
}

/**
 * What a named statement meets behind a pooler in transaction mode that does not carry prepared statements across
 * its server connections (PgBouncer before 1.21, or 1.21+ with max_prepared_statements = 0): the name prepared on
 * another server connection (26000), or already prepared there by another client (42P05). Either is refused at Parse
 * or Bind, before anything runs, so the statement can be sent again unnamed (decision 0227).
 */
const POOLER_STATEMENT_SQLSTATES = new Set(['26000', '42P05']);

export interface PostgresOptions {
  /** Told once when named statements are turned off for this pool (a transaction-mode pooler stands in between). */
  warn?: (message: string) => void;
}

/** Connections per process by default: DATABASE_POOL_MAX's default (docs/scaling.md has the arithmetic). */
export const DEFAULT_POOL_MAX = 10;

export function openPostgres(url: string, poolMax = DEFAULT_POOL_MAX, opts: PostgresOptions = {}): Db {
  const pool = newPool(url, poolMax);
  // `priority` statements: one connection of their own, opened on first use (one more than DATABASE_POOL_MAX).
  let priorityPool: pg.Pool | undefined;
  let closed = false;
  // Named statements until a pooler refuses one; then unnamed for the life of the pool.
  let named = true;
  const wrap = (c: () => pg.Pool | pg.PoolClient, inTransaction: boolean): Queryable => ({
    async query<T>(sql: string, params: unknown[] = [], options: QueryOptions = {}) {
      const name = options.prepared && named ? statementName(sql) : undefined;
      try {
        const r = await c().query(name ? { name, text: sql, values: params } : { text: sql, values: params });
        return { rows: r.rows as T[], rowCount: r.rowCount ?? 0 };
      } catch (err) {
        const code = (err as { code?: unknown }).code;
        // Inside a transaction the refusal has aborted it: the caller's transaction fails and may be retried whole.
        if (name && !inTransaction && typeof code === 'string' && POOLER_STATEMENT_SQLSTATES.has(code)) {
          if (named) {
            named = false;
            opts.warn?.(
              `PostgreSQL refused a named prepared statement (${code}): a pooler in transaction mode stands in ` +
                'between (PgBouncer < 1.21, or max_prepared_statements = 0). Statements are sent unnamed from now on.',
            );
          }
          return wrap(c, inTransaction).query<T>(sql, params, { ...options, prepared: false });
        }
        throw unavailableOr(err);
      }
    },
  });
  const base = wrap(() => pool, false);
  // After close() the ended pool answers, so a priority statement fails as any other instead of connecting again.
  const priority = wrap(() => (closed ? pool : (priorityPool ??= newPool(url, 1))), false);
  const db: Db = {
    kind: 'postgres',
    query: (sql, params, options) => (options?.priority ? priority : base).query(sql, params, options),
    transaction: (fn, options) => retryingConflicts(() => transactionOnce(fn), options),
    async exec(sql) {
      try {
        await pool.query(sql);
      } catch (err) {
        throw unavailableOr(err);
      }
    },
    async close() {
      closed = true;
      await Promise.all([pool.end(), priorityPool?.end()]);
    },
  };
  async function transactionOnce<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (err) {
      throw unavailableOr(err);
    }
    // A checked-out client has no pool listener: without ours, a dropped connection is an unhandled 'error'
    // event that ends the process. A broken client is released with its error, so the pool discards it.
    let broken: Error | null = null;
    const onError = (err: Error) => {
      broken = err;
    };
    client.on('error', onError);
    try {
      await client.query('BEGIN');
      const tx: Transaction = {
        ...wrap(() => client, true),
        // No parameters: node-postgres uses the simple query protocol, which runs several statements.
        exec: async (sql) => {
          try {
            await client.query(sql);
          } catch (err) {
            throw unavailableOr(err);
          }
        },
      };
      owners.set(tx, db);
      const result = await fn(tx);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      if (isConnectionError(err)) broken ??= err as Error;
      if (!broken) await client.query('ROLLBACK').catch((e: Error) => (broken = e));
      throw unavailableOr(err);
    } finally {
      client.off('error', onError);
      client.release(broken ?? undefined);
    }
  }
  return db;
}

/** Extensions the migrations create; every PGlite that opens a product data dir loads them. */
export const PGLITE_EXTENSIONS = { pg_trgm };

/** PGlite's shared buffers (PostgreSQL's default is 128 MB). */
export const PGLITE_SHARED_BUFFERS = '16MB';

/**
 * Turns on the event loop for the embedded database (issue 17, decision 0175). PGlite runs a statement synchronously
 * on the main thread, and its own queue starts the next statement in the same macrotask: a backlog of N statements
 * held the event loop for N × a few ms in one go. Since libuv 1.45 (Node 20) a listening socket accepts one connection
 * per event-loop turn, so 50 connections opened at once were accepted one per backlog, 40–150 ms apart, and their
 * first requests waited 1–3 s. Here each unit (a statement, a script, or a whole transaction) runs alone, in the
 * order asked, and starts in a `setImmediate` after the previous unit ended, so the loop polls its sockets (accepts,
 * reads, writes) between two units; a transaction's statements each start on a turn of their own too, without
 * letting another unit in. A statement asked inside a transaction's callback outside it (`db.query` instead of
 * `tx.query`) waits for the transaction, as it did in PGlite itself.
 */
export function eventLoopTurns() {
  const waiting: (() => void)[] = [];
  let held = false;
  const release = () => {
    const next = waiting.shift();
    if (next) setImmediate(next);
    else held = false;
  };
  return {
    /** Runs fn alone, after every unit asked before it, from an event-loop turn of its own. */
    async exclusive<T>(fn: () => Promise<T>): Promise<T> {
      await new Promise<void>((resolve) => {
        if (held) waiting.push(resolve);
        else {
          held = true;
          setImmediate(resolve);
        }
      });
      try {
        return await fn();
      } finally {
        release();
      }
    },
    /** Inside a unit: continue on the next turn (the loop polls its sockets first). */
    nextTurn: () => new Promise<void>((resolve) => setImmediate(resolve)),
  };
}

/** Embedded PostgreSQL. dataDir undefined = in memory. One process per data dir. */
export async function openPglite(dataDir?: string): Promise<Db> {
  if (dataDir) fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  // PostgreSQL's default 128 MB of shared buffers lives inside the WASM heap and is most of the process's memory; a
  // practice's tables fit in far less and the file cache backs the rest (issue 17: idle RSS ≤ 250 MB).
  const options = {
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
    // The board's search indexes (migration 0203); PGlite finds the extension's files beside its own module.
    extensions: PGLITE_EXTENSIONS,
  };
  const fresh = !dataDir || !fs.existsSync(path.join(dataDir, 'PG_VERSION'));
  const db = dataDir ? new PGlite(dataDir, options) : new PGlite(options);
  await db.waitReady;
  // Creating a database (initdb) leaves ~400 MB of garbage behind (a copy of the WASM heap, initdb's own instance).
  // Little is allocated while the server idles, so V8 often kept it (idle RSS 590-710 MB instead of ~270 MB in about
  // one fresh start of three). One full collection, when `npm run serve` exposes it (decision 0175), a turn later:
  // until the opening's promise chain has ended the garbage is still reachable.
  const gc = (globalThis as { gc?: () => void }).gc;
  if (fresh && gc) {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
  const turns = eventLoopTurns();
  const run = async <T>(c: Pick<PGlite, 'query'>, sql: string, params: unknown[]): Promise<QueryResult<T>> => {
    const r = await c.query<T>(sql, params);
    // PGlite reports affectedRows 0 for SELECT; node-postgres reports the row count.
    return { rows: r.rows, rowCount: Math.max(r.affectedRows ?? 0, r.rows.length) };
  };
  const wrapped: Db = {
    kind: 'pglite',
    query: <T>(sql: string, params: unknown[] = []) => turns.exclusive(() => run<T>(db, sql, params)),
    transaction: (fn) =>
      turns.exclusive(() =>
        db.transaction((tx) => {
          const t: Transaction = {
            async query<T>(sql: string, params: unknown[] = []) {
              await turns.nextTurn();
              return run<T>(tx, sql, params);
            },
            async exec(sql) {
              await turns.nextTurn();
              await tx.exec(sql);
            },
          };
          owners.set(t, wrapped);
          return fn(t);
        }),
      ),
    async exec(sql) {
      await turns.exclusive(() => db.exec(sql));
    },
    async close() {
      await db.close();
    },
  };
  return wrapped;
}

export async function openDb(
  opts: { databaseUrl?: string; dataDir: string; poolMax?: number } & PostgresOptions,
): Promise<Db> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl, opts.poolMax, { warn: opts.warn });
  const dir = path.join(opts.dataDir, 'pglite');
  // A fresh data dir starts as a copy of the build's migrated template when there is one (decision 0181).
  restoreTemplate(dir);
  return openPglite(dir);
}
