import type { Db, Queryable } from '../../src/db/client.js';

/**
 * Test support: counts the SQL statements a database object sends, as PostgreSQL's statement log would (a transaction
 * adds its BEGIN and COMMIT). Patches the object's own methods in place (transactions stay the driver's objects, so
 * nothing keyed on them changes). `skip` leaves out statements that are not ours (the sandbox gateway's), and a
 * transaction made only of them.
 */
export interface StatementCounter {
  /** The statements logged since the last reset, in order ('BEGIN' and 'COMMIT' included). */
  statements(): string[];
  reset(): void;
  stop(): void;
}

export function countStatements(db: Db, skip: (sql: string) => boolean = () => false): StatementCounter {
  let log: string[] = [];
  const query = db.query;
  const transaction = db.transaction;
  const wrap = (q: Queryable, sink: () => string[]) => {
    const original = q.query.bind(q);
    q.query = ((sql: string, params?: unknown[], options?: object) => {
      if (!skip(sql)) sink().push(sql.replace(/\s+/g, ' ').trim());
      return original(sql, params, options);
    }) as Queryable['query'];
  };
  wrap(db, () => log);
  db.transaction = (async (fn: (tx: never) => Promise<unknown>) => {
    const inner: string[] = [];
    let skipped = false;
    try {
      return await transaction.call(db, async (tx) => {
        const own = tx.query;
        wrap(tx, () => inner);
        const q = tx.query;
        tx.query = ((sql: string, ...rest: unknown[]) => {
          if (skip(sql)) skipped = true;
          return (q as (...a: unknown[]) => unknown)(sql, ...rest);
        }) as Queryable['query'];
        try {
          return await fn(tx as never);
        } finally {
          tx.query = own;
        }
      });
    } finally {
      if (inner.length > 0 || !skipped) log.push('BEGIN', ...inner, 'COMMIT');
    }
  }) as Db['transaction'];
  return {
    statements: () => [...log],
    reset: () => {
      log = [];
    },
    stop: () => {
      db.query = query;
      db.transaction = transaction;
    },
  };
}
