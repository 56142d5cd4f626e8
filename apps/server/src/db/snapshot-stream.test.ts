import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb } from '../../test/support/test-db.js';
import type { Db } from './client.js';
import { cursorBatches, snapshotStream } from './snapshot-stream.js';

/**
 * A streamed download over real HTTP (issue 30; decision 0228), on the test database (PGlite, or the server named by
 * DATABASE_URL): rows come from a cursor in batches; a database error after the first bytes cuts the response, so the
 * client sees a failed download, never a short file that looks whole; an error before them is an ordinary answer.
 */
let db: Db;
let app: FastifyInstance;
let base: string;

/** Rows 1..n, one line each; the row `failAt` divides by zero when its batch is fetched. */
const rows = (n: number, failAt = 0) =>
  `select i, case when i = ${failAt} then 1 / (i - ${failAt}) else i end as v from generate_series(1, ${n}) i`;

beforeAll(async () => {
  db = await createTestDb();
  await db.query('create table stream_audit (id serial primary key, note text)');
  app = Fastify();
  app.get<{ Querystring: { n: string; failAt?: string; failFirst?: string } }>('/rows.csv', async (request, reply) => {
    const n = Number(request.query.n);
    const stream = await snapshotStream(
      db,
      async (tx, write) => {
        await tx.query(`insert into stream_audit (note) values ($1)`, [`rows ${n}`]);
        if (request.query.failFirst) await tx.query('select 1 / 0');
        await write('i,v\r\n');
        for await (const batch of cursorBatches<{ i: number; v: number }>(
          tx,
          rows(n, Number(request.query.failAt ?? 0)),
          [],
          500,
        )) {
          await write(batch.map((r) => `${r.i},${r.v}\r\n`).join(''));
        }
      },
      {
        buffer: 16 << 10,
        pgliteBuffer: 16 << 10,
        // As the exports do: the rolled-back audit row is written again, on its own.
        onCut: async () => void (await db.query(`insert into stream_audit (note) values ($1)`, [`cut ${n}`])),
      },
    );
    return reply.type('text/csv').send(stream);
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await app?.close();
  await db?.close();
});

/** GET over a socket: the status, the body received, and whether the response ended cleanly. */
function get(path: string, opts: { abortAfterBytes?: number } = {}) {
  return new Promise<{ status: number; body: string; complete: boolean }>((resolve) => {
    const req = http.get(`${base}${path}`, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        body += c;
        if (opts.abortAfterBytes && body.length >= opts.abortAfterBytes) req.destroy();
      });
      res.on('end', () => resolve({ status: res.statusCode!, body, complete: res.complete }));
      res.on('error', () => resolve({ status: res.statusCode!, body, complete: false }));
      res.on('aborted', () => resolve({ status: res.statusCode!, body, complete: false }));
      res.on('close', () => resolve({ status: res.statusCode!, body, complete: res.complete }));
    });
    req.on('error', () => resolve({ status: 0, body: '', complete: false }));
  });
}

describe('a streamed download', () => {
  it('sends every row of many batches, in order', async () => {
    const r = await get('/rows.csv?n=20000');
    expect(r.status).toBe(200);
    expect(r.complete).toBe(true);
    const want = ['i,v', ...Array.from({ length: 20000 }, (_, k) => `${k + 1},${k + 1}`)].join('\r\n') + '\r\n';
    expect(r.body === want).toBe(true);
  });

  it('an error after the first bytes cuts the response: the client never gets a complete file', async () => {
    const r = await get('/rows.csv?n=20001&failAt=15000');
    // Either the headers went out (200, then the connection is cut before the last chunk) or nothing did (500).
    if (r.status === 200) expect(r.complete).toBe(false);
    else expect(r.status).toBe(500);
    expect(r.body).not.toContain('\r\n20001,20001\r\n');
    // The failed transaction wrote nothing; when bytes had gone out, onCut recorded the read on its own.
    expect((await db.query(`select 1 from stream_audit where note = 'rows 20001'`)).rowCount).toBe(0);
    if (r.status === 200) {
      let cut = 0;
      for (let i = 0; i < 50 && cut === 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        cut = (await db.query(`select 1 from stream_audit where note = 'cut 20001'`)).rowCount;
      }
      expect(cut).toBe(1);
    }
  });

  it('an error before the first byte is an ordinary error answer', async () => {
    const r = await get('/rows.csv?n=10&failFirst=1');
    expect(r.status).toBe(500);
    expect((await db.query(`select 1 from stream_audit where note like '% 10'`)).rowCount).toBe(0);
  });

  it('a reader that goes away ends the read and keeps what the transaction wrote (the audit row)', async () => {
    const r = await get('/rows.csv?n=300000', { abortAfterBytes: 1000 });
    expect(r.complete).toBe(false);
    let kept = 0;
    for (let i = 0; i < 50 && kept === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      kept = (await db.query(`select 1 from stream_audit where note = 'rows 300000'`)).rowCount;
    }
    expect(kept).toBe(1);
  });
});
