import type { Db, Queryable, QueryOptions, QueryResult, Transaction } from '../../src/db/client.js';

type QueryFn = Queryable['query'];

/**
 * Records the SQL statements sent through `db` (and its transactions) until `stop()`, counting BEGIN and COMMIT (or
 * ROLLBACK) as the journey bench's statement log does (issue 30). `afterEach` runs after each recorded statement
 * (to make a concurrent change between two of them); its own statements are not recorded. Test-only: it swaps the
 * object's methods and puts them back.
 */
export function recordStatements(
  db: Db,
  opts: { afterEach?: (text: string) => Promise<void> | void } = {},
): { statements: string[]; stop: () => void } {
  const statements: string[] = [];
  const query = db.query;
  const transaction = db.transaction;
  let quiet = false;
  const after = async (text: string) => {
    if (quiet || !opts.afterEach) return;
    quiet = true;
    try {
      await opts.afterEach(text);
    } finally {
      quiet = false;
    }
  };
  const recording = (q: Queryable, original: QueryFn): QueryFn =>
    async function <T>(text: string, params?: unknown[], options?: QueryOptions): Promise<QueryResult<T>> {
      const run = () => original.call(q, text, params, options) as Promise<QueryResult<T>>;
      if (quiet) return run();
      statements.push(text);
      const r = await run();
      await after(text);
      return r;
    };
  db.query = recording(db, query);
  db.transaction = async function <T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    const loud = !quiet;
    if (loud) statements.push('BEGIN');
    let ok = false;
    try {
      const result = await transaction.call(db, async (tx: Transaction) => {
        const txQuery = tx.query;
        tx.query = recording(tx, txQuery);
        try {
          return await fn(tx);
        } finally {
          tx.query = txQuery;
        }
      });
      ok = true;
      return result as T;
    } finally {
      if (loud) statements.push(ok ? 'COMMIT' : 'ROLLBACK');
    }
  };
  return {
    statements,
    stop: () => {
      db.query = query;
      db.transaction = transaction;
    },
  };
}
