import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db, Queryable } from '../db/client.js';
import { createTestDb } from '../../test/support/test-db.js';
import { AuditBatch, AuditUnavailableError } from './audit-batch.js';

let db: Db;
let closed = false;
/** Inserts the batch sent, with the number of rows each carried. */
let inserts: number[] = [];
const counted: Queryable = {
  query: (sql, params, options) => {
    if (/^insert into audit_event\b/.test(sql)) inserts.push((params![0] as unknown[]).length);
    return db.query(sql, params, options);
  },
};

beforeAll(async () => {
  db = await createTestDb();
});
afterAll(async () => {
  if (!closed) await db.close();
});

async function rowsOf(action: string) {
  const r = await db.query<{
    actor_type: string;
    actor_id: string | null;
    link_id: string | null;
    request_id: string | null;
    ip: string | null;
    details: unknown;
  }>('select actor_type, actor_id, link_id, request_id, ip, details from audit_event where action = $1 order by id', [
    action,
  ]);
  return r.rows;
}

describe('AuditBatch (decision 0179)', () => {
  it('writes a lone row at once, with the columns writeAudit gives (nulls and details kept)', async () => {
    inserts = [];
    const batch = new AuditBatch(() => counted);
    await batch.write({
      actorType: 'link',
      actorId: 's1',
      action: 'test.lone',
      linkId: null,
      requestId: 'r1',
      ip: null,
    });
    await batch.write({ actorType: 'system', action: 'test.lone', details: { why: 'x' } });
    expect(inserts).toEqual([1, 1]);
    expect(await rowsOf('test.lone')).toEqual([
      { actor_type: 'link', actor_id: 's1', link_id: null, request_id: 'r1', ip: null, details: {} },
      { actor_type: 'system', actor_id: null, link_id: null, request_id: null, ip: null, details: { why: 'x' } },
    ]);
  });

  it('rows written while an insert runs go together in the next one, at most maxRows each', async () => {
    inserts = [];
    const batch = new AuditBatch(() => counted, 4);
    const writes = Array.from({ length: 11 }, (_, i) =>
      batch.write({ actorType: 'system', action: 'test.group', requestId: `g${i}` }),
    );
    await Promise.all(writes);
    // The first row goes alone (nothing was running), the other ten wait for it and go in inserts of ≤ 4.
    expect(inserts).toEqual([1, 4, 4, 2]);
    expect((await rowsOf('test.group')).map((r) => r.request_id)).toEqual(
      Array.from({ length: 11 }, (_, i) => `g${i}`),
    );
  });

  it('a failed insert rejects each of its rows with a 503 error, and the next insert runs', async () => {
    let fail = true;
    const flaky: Queryable = {
      query: (sql, params, options) => (fail ? Promise.reject(new Error('disk full')) : db.query(sql, params, options)),
    };
    const batch = new AuditBatch(() => flaky);
    const first = batch.write({ actorType: 'system', action: 'test.fail', requestId: 'a' });
    const second = batch.write({ actorType: 'system', action: 'test.fail', requestId: 'b' });
    const results = await Promise.allSettled([first, second]);
    for (const r of results) {
      expect(r.status).toBe('rejected');
      const err = (r as PromiseRejectedResult).reason;
      expect(err).toBeInstanceOf(AuditUnavailableError);
      expect(err.code).toBe('database_unavailable');
      expect(err.cause).toMatchObject({ message: 'disk full' });
    }
    fail = false;
    await batch.write({ actorType: 'system', action: 'test.fail', requestId: 'c' });
    expect((await rowsOf('test.fail')).map((r) => r.request_id)).toEqual(['c']);
  });

  it('close() writes what is queued, then refuses new rows', async () => {
    const batch = new AuditBatch(() => db);
    const queued = Array.from({ length: 5 }, (_, i) =>
      batch.write({ actorType: 'system', action: 'test.close', requestId: `q${i}` }),
    );
    await batch.close();
    await expect(Promise.all(queued)).resolves.toBeDefined();
    expect(await rowsOf('test.close')).toHaveLength(5);
    await expect(batch.write({ actorType: 'system', action: 'test.close' })).rejects.toBeInstanceOf(
      AuditUnavailableError,
    );
    expect(await rowsOf('test.close')).toHaveLength(5);
  });

  // Last: it closes the file's database.
  it('rows written to a closed database fail, none is lost silently', async () => {
    const batch = new AuditBatch(() => db);
    await db.close();
    closed = true;
    await expect(batch.write({ actorType: 'system', action: 'test.gone' })).rejects.toBeInstanceOf(
      AuditUnavailableError,
    );
  });
});
