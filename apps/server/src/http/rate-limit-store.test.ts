import { randomBytes } from 'node:crypto';
import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDb } from '../../test/support/test-db.js';
import { openPostgres, type Db } from '../db/client.js';
import { migrate } from '../db/migrate.js';
import { leaseSize, postgresRateLimitStore } from './rate-limit-store.js';

/**
 * The PostgreSQL rate-limit store with leased counts (issue 30, decision 0229), as two processes see it: two stores,
 * each on its own connection pool, on one database (with DATABASE_URL; on PGlite, two stores on one database, which is
 * what the stores' own memory sees of two processes). A request is let through when `current` is at most the limit.
 */
const DATABASE_URL = process.env.DATABASE_URL;
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const f of cleanups.reverse()) await f();
});

/** Counts the upserts each "process" sends (not the occasional sweep). */
function counted(db: Db): Db & { statements: number } {
  const d = Object.create(db) as Db & { statements: number };
  d.statements = 0;
  d.query = ((...args: Parameters<Db['query']>) => {
    if (String(args[0]).includes('insert into rate_limit_counter')) d.statements++;
    return db.query(...args);
  }) as Db['query'];
  return d;
}

async function twoProcesses(): Promise<[Db, Db]> {
  if (!DATABASE_URL) {
    const db = await createTestDb();
    cleanups.push(() => db.close());
    return [db, db];
  }
  const name = `paylink_rl_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(DATABASE_URL);
  u.pathname = `/${name}`;
  const a = openPostgres(u.toString(), 4);
  const b = openPostgres(u.toString(), 4);
  cleanups.push(async () => {
    await Promise.all([a.close(), b.close()]);
    const c = new pg.Client({ connectionString: DATABASE_URL });
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
  });
  await migrate(a);
  return [a, b];
}

function store(db: Db): FastifyRateLimitStore {
  const Store = postgresRateLimitStore(db);
  return new Store({} as never);
}

const incr = (s: FastifyRateLimitStore, key: string, max: number, windowMs = 60_000) =>
  new Promise<{ current: number; ttl: number }>((resolve, reject) =>
    (
      s.incr as (
        k: string,
        cb: (e: Error | null, r?: { current: number; ttl: number }) => void,
        w: number,
        m: number,
      ) => void
    )(key, (err, res) => (err ? reject(err) : resolve(res!)), windowMs, max),
  );

const [dbA, dbB] = await twoProcesses();
const key = () => `default:203.0.113.${randomBytes(2).readUInt16BE() % 250}-${randomBytes(4).toString('hex')}`;

describe('rate-limit store on PostgreSQL, two processes', () => {
  it('reserves a fiftieth of the limit at a time; small limits (sign-in, lookup, staff sign-in) count one by one', () => {
    expect(leaseSize(1200)).toBe(24);
    expect(leaseSize(100)).toBe(2);
    for (const strict of [60, 30, 20, 3, 1]) expect(leaseSize(strict)).toBe(1);
  });

  it('a strict group is exact across processes: one statement per request, the limit+1st refused wherever it lands', async () => {
    const a = counted(dbA);
    const b = counted(dbB);
    const [sa, sb] = [store(a), store(b)];
    const k = key();
    const seen = [];
    for (let i = 0; i < 4; i++) seen.push((await incr(i % 2 ? sb : sa, k, 3)).current);
    expect(seen).toEqual([1, 2, 3, 4]);
    expect(a.statements + b.statements).toBe(4);
  });

  it('a large limit still refuses across processes, never late and at most processes × lease early', async () => {
    const a = counted(dbA);
    const b = counted(dbB);
    const [sa, sb] = [store(a), store(b)];
    const k = key();
    const max = 1000;
    const lease = leaseSize(max);
    // 1200 requests at once, spread over both processes.
    const results = await Promise.all(Array.from({ length: 1200 }, (_, i) => incr(i % 3 ? sa : sb, k, max)));
    const passed = results.filter((r) => r.current <= max).length;
    expect(passed).toBeLessThanOrEqual(max);
    expect(passed).toBeGreaterThanOrEqual(max - 2 * lease);
    // No two requests got the same number.
    expect(new Set(results.map((r) => r.current)).size).toBe(results.length);
    // One statement per block, not per request.
    expect(a.statements + b.statements).toBeLessThanOrEqual(Math.ceil(1200 / lease) + 2);
    // And after that, neither process lets another through this window.
    expect((await incr(sa, k, max)).current).toBeGreaterThan(max);
    expect((await incr(sb, k, max)).current).toBeGreaterThan(max);
  });

  it('one process holds its block: the other reserves the next, and both report the window’s ttl', async () => {
    const a = counted(dbA);
    const b = counted(dbB);
    const [sa, sb] = [store(a), store(b)];
    const k = key();
    const first = await incr(sa, k, 100); // block 1..2
    const other = await incr(sb, k, 100); // block 3..4
    const second = await incr(sa, k, 100);
    expect([first.current, other.current, second.current]).toEqual([1, 3, 2]);
    expect(a.statements).toBe(1);
    expect(b.statements).toBe(1);
    for (const r of [first, other, second]) {
      expect(r.ttl).toBeGreaterThan(50_000);
      expect(r.ttl).toBeLessThanOrEqual(60_000);
    }
  });

  it('a window that ended starts again, for leased and strict groups', async () => {
    const [sa, sb] = [store(dbA), store(dbB)];
    for (const max of [2, 100]) {
      const k = key();
      const windowMs = 400;
      let current = 0;
      while (current <= max) current = (await incr(current % 2 ? sb : sa, k, max, windowMs)).current;
      await new Promise((r) => setTimeout(r, windowMs + 100));
      const again = await incr(sb, k, max, windowMs);
      expect(again.current).toBeLessThanOrEqual(leaseSize(max));
      expect(again.ttl).toBeGreaterThan(0);
      expect(again.ttl).toBeLessThanOrEqual(windowMs);
      expect((await incr(sa, k, max, windowMs)).current).toBeLessThanOrEqual(max);
    }
  });

  it('an unreachable database is an error for every waiting request (the plugin lets them through: skipOnError)', async () => {
    const down = { ...dbA, query: () => Promise.reject(new Error('connection refused')) } as unknown as Db;
    const s = store(down);
    const k = key();
    const all = await Promise.allSettled([incr(s, k, 1200), incr(s, k, 1200), incr(s, k, 3)]);
    expect(all.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
  });
});
