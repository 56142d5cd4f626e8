import { randomBytes } from 'node:crypto';
import net from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseUnavailableError, openPglite, openPostgres, statementName, type Db } from './client.js';

/**
 * The embedded database shares the server's event loop (issue 17, decision 0175): while statements queue up, the
 * server still accepts and answers connections between two of them, and transactions stay whole.
 */
let db: Db;
beforeAll(async () => {
  db = await openPglite();
  await db.exec('create table t (n int not null, at serial primary key)');
});
afterAll(async () => {
  await db.close();
});

/** An echo server on loopback: a client's round trip needs the loop to accept, read and write. */
async function echoServer(): Promise<{ port: number; close: () => Promise<void> }> {
  const server = net.createServer((s) => s.on('data', (d) => s.end(d)));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe('the embedded database (PGlite) and the event loop', () => {
  it('serves a new connection while a backlog of statements waits, not after the whole backlog', async () => {
    const echo = await echoServer();
    try {
      const total = 30;
      let done = 0;
      // Each statement costs a few milliseconds of CPU on the main thread, as a patient read does.
      const backlog = Array.from({ length: total }, () =>
        db.query('select count(*) from generate_series(1, 20000)').then(() => done++),
      );
      const doneWhenEchoed = await new Promise<number>((resolve, reject) => {
        const c = net.connect(echo.port, '127.0.0.1', () => c.write('ping'));
        c.on('data', () => {
          resolve(done);
          c.destroy();
        });
        c.on('error', reject);
      });
      await Promise.all(backlog);
      expect(done).toBe(total);
      expect(doneWhenEchoed).toBeLessThan(total / 2);
    } finally {
      await echo.close();
    }
  });

  it('runs statements in the order asked, each seeing the ones before it', async () => {
    const asked = Array.from({ length: 10 }, (_, i) =>
      db.query<{ n: number; seen: number }>(
        'insert into t (n) values ($1) returning n, (select count(*)::int from t) as seen',
        [i],
      ),
    );
    const rows = (await Promise.all(asked)).map((r) => r.rows[0]!);
    expect(rows.map((r) => r.n)).toEqual([...Array(10).keys()]);
    expect(rows.map((r) => r.seen)).toEqual([...Array(10).keys()]);
    await db.query('delete from t');
  });

  it('keeps a transaction whole: a statement asked meanwhile runs after its commit, or after its rollback', async () => {
    const tx = db.transaction(async (t) => {
      await t.query('insert into t (n) values (1)');
      await t.exec('insert into t (n) values (2)');
      return (await t.query<{ c: number }>('select count(*)::int as c from t')).rows[0]!.c;
    });
    const meanwhile = db.query<{ c: number }>('select count(*)::int as c from t');
    expect(await tx).toBe(2);
    expect((await meanwhile).rows[0]!.c).toBe(2);

    const failed = db.transaction(async (t) => {
      await t.query('insert into t (n) values (3)');
      throw new Error('refused');
    });
    const after = db.query<{ c: number }>('select count(*)::int as c from t');
    await expect(failed).rejects.toThrow('refused');
    expect((await after).rows[0]!.c).toBe(2);
    await db.query('delete from t');
  });
});

describe.skipIf(!process.env.DATABASE_URL)('a PostgreSQL server: priority statements (needs DATABASE_URL)', () => {
  it('runs a priority statement while every pooled connection is busy and others queue', async () => {
    const pgDb = openPostgres(process.env.DATABASE_URL!, 1);
    try {
      const order: string[] = [];
      const busy = pgDb.query('select pg_sleep(0.3)').then(() => order.push('busy'));
      const queued = pgDb.query('select 1').then(() => order.push('queued'));
      const first = pgDb.query('select 1', [], { priority: true }).then(() => order.push('priority'));
      await Promise.all([busy, queued, first]);
      expect(order).toEqual(['priority', 'busy', 'queued']);
    } finally {
      await pgDb.close();
    }
    // Closed: a priority statement fails like any other instead of opening a connection again.
    await expect(pgDb.query('select 1', [], { priority: true })).rejects.toThrow();
  });
});

describe.skipIf(!process.env.DATABASE_URL)('a PostgreSQL server: deadlocks (needs DATABASE_URL)', () => {
  /** Two transactions that lock rows 1 and 2 in opposite orders, each waiting for the other's first lock. */
  async function collide(pgDb: Db, table: string, options?: { retryConflicts: boolean }) {
    let runs = 0;
    let arrived = 0;
    let release!: () => void;
    const bothLocked = new Promise<void>((r) => (release = r));
    const one = (first: number, second: number) =>
      pgDb.transaction(async (tx) => {
        runs++;
        await tx.query(`update ${table} set v = v + 1 where id = $1`, [first]);
        // Only the first runs meet: a run again goes straight through.
        if (++arrived === 2) release();
        if (arrived <= 2) await bothLocked;
        await tx.query(`update ${table} set v = v + 1 where id = $1`, [second]);
        return first;
      }, options);
    const results = await Promise.allSettled([one(1, 2), one(2, 1)]);
    return { runs, results };
  }

  it('a transaction that opts in runs again as the deadlock victim (40P01); one that does not fails', async () => {
    const pgDb = openPostgres(process.env.DATABASE_URL!, 4);
    const table = `deadlock_${randomBytes(4).toString('hex')}`;
    try {
      await pgDb.exec(
        `create table ${table} (id int primary key, v int not null); insert into ${table} values (1, 0), (2, 0)`,
      );
      const retried = await collide(pgDb, table, { retryConflicts: true });
      expect(retried.results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
      expect(retried.runs).toBe(3);
      const plain = await collide(pgDb, table);
      expect(
        plain.results.filter((r) => r.status === 'rejected').map((r) => (r.reason as { code?: string }).code),
      ).toEqual(['40P01']);
      const rows = await pgDb.query<{ v: number }>(`select v from ${table} order by id`);
      expect(rows.rows.map((r) => r.v)).toEqual([3, 3]);
    } finally {
      await pgDb.exec(`drop table if exists ${table}`);
      await pgDb.close();
    }
  });
});

/** PgBouncer answers `show version` on its admin database, `pgbouncer`; PostgreSQL has no such database. */
async function isPgBouncer(url: string): Promise<boolean> {
  const u = new URL(url);
  u.pathname = '/pgbouncer';
  const c = new pg.Client({ connectionString: u.toString() });
  try {
    await c.connect();
    await c.query('show version');
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => undefined);
  }
}

describe.skipIf(!process.env.DATABASE_URL)(
  'named statements behind a transaction-mode pooler (needs DATABASE_URL)',
  () => {
    const sql = 'select $1::int + 1 as n';
    const warnings: string[] = [];
    const open = (max: number) => openPostgres(process.env.DATABASE_URL!, max, { warn: (m) => warnings.push(m) });

    // What PgBouncer < 1.21 does to a named statement, reproduced on one PostgreSQL connection: the name prepared by
    // someone else on the server connection (42P05), then gone from it though this client prepared it (26000). Through
    // PgBouncer the setup's own `prepare` lands on any server connection: there the next test is the proof.
    it('answers a statement whose name the connection refuses, then sends it unnamed, telling once', async (t) => {
      if (await isPgBouncer(process.env.DATABASE_URL!)) t.skip();
      warnings.length = 0;
      const already = open(1);
      try {
        await already.query(`prepare ${statementName(sql)} (int) as ${sql}`);
        expect((await already.query<{ n: number }>(sql, [1], { prepared: true })).rows).toEqual([{ n: 2 }]);
        expect((await already.query<{ n: number }>(sql, [2], { prepared: true })).rows).toEqual([{ n: 3 }]);
        expect(warnings).toHaveLength(1);
        expect(warnings[0]).toMatch(/42P05.*transaction mode/);
      } finally {
        await already.close();
      }
      const gone = open(1);
      try {
        expect((await gone.query<{ n: number }>(sql, [1], { prepared: true })).rows).toEqual([{ n: 2 }]);
        await gone.query(`deallocate ${statementName(sql)}`);
        expect((await gone.query<{ n: number }>(sql, [3], { prepared: true })).rows).toEqual([{ n: 4 }]);
        expect(warnings).toHaveLength(2);
        expect(warnings[1]).toMatch(/26000/);
      } finally {
        await gone.close();
      }
    });

    // Through PgBouncer (CI's PgBouncer step) this meets both refusals for real; on PostgreSQL itself it never warns.
    it('answers 200 named statements at once on a pool of 5', async () => {
      warnings.length = 0;
      const db5 = open(5);
      try {
        const rows = await Promise.all(
          Array.from({ length: 200 }, (_, i) => db5.query<{ n: number }>(sql, [i], { prepared: true })),
        );
        expect(rows.map((r) => r.rows[0]!.n)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
        expect(warnings.length).toBeLessThanOrEqual(1);
      } finally {
        await db5.close();
      }
    });
  },
);

describe.skipIf(!process.env.DATABASE_URL)(
  'a connection PgBouncer drops (needs DATABASE_URL through PgBouncer)',
  () => {
    // PgBouncer ends a client with 08P01 when its server connection dies, when no server connection comes within
    // query_wait_timeout, or when an operator kills the database (here): a 503 to retry, not a 500.
    it('is DatabaseUnavailableError, and the pool serves the next statement', async (t) => {
      const url = process.env.DATABASE_URL!;
      if (!(await isPgBouncer(url))) t.skip();
      const name = `paylink_kill_${randomBytes(5).toString('hex')}`;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`create database ${name}`);
      const u = new URL(url);
      u.pathname = `/${name}`;
      const killed = openPostgres(u.toString(), 2);
      const console = new URL(url);
      console.pathname = '/pgbouncer';
      const bouncer = new pg.Client({ connectionString: console.toString() });
      await bouncer.connect();
      try {
        const sleeping = killed.query('select pg_sleep(2)').then(
          () => null,
          (err: unknown) => err,
        );
        await new Promise((r) => setTimeout(r, 300));
        await bouncer.query(`kill ${name}`);
        await bouncer.query(`resume ${name}`).catch(() => undefined);
        expect(await sleeping).toBeInstanceOf(DatabaseUnavailableError);
        expect((await killed.query<{ n: number }>('select 1 as n')).rows).toEqual([{ n: 1 }]);
      } finally {
        await killed.close();
        await bouncer.end();
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      }
    });
  },
);
