import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, openPostgres, type Db } from './client.js';

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
