import type { Db, Queryable, QueryOptions, QueryResult, Transaction } from '../../src/db/client.js';

type QueryFn = Queryable['query'];

export interface StatementRecorder {
  /** The statements recorded since the start (or the last `reset()`), in order. Cleared in place by `reset()`. */
  statements: string[];
  reset: () => void;
  stop: () => void;
}

/**
 * Records the SQL statements sent through `db` (and its transactions) until `stop()`, counting BEGIN and COMMIT (or
 * ROLLBACK) as the journey bench's statement log does (issue 30). `afterEach` runs after each recorded statement
 * (to make a concurrent change between two of them); its own statements are not recorded. `skip` leaves out
 * statements that are not ours (the sandbox gateway's), and a transaction made only of them: with it, a transaction's
 * BEGIN is recorded with its first recorded statement. Test-only: it swaps the object's methods (transactions stay
 * the driver's objects, so nothing keyed on them changes) and puts them back.
 */
export function recordStatements(
  db: Db,
  opts: { afterEach?: (text: string) => Promise<void> | void; skip?: (text: string) => boolean } = {},
): StatementRecorder {
  const statements: string[] = [];
  const query = db.query;
  const transaction = db.transaction;
  const skip = opts.skip ?? (() => false);
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
  /** `tx` is told of each statement its transaction sends: skipped, or about to be recorded. */
  const recording = (q: Queryable, original: QueryFn, tx?: { skipped: () => void; recorded: () => void }): QueryFn =>
    async function <T>(text: string, params?: unknown[], options?: QueryOptions): Promise<QueryResult<T>> {
      const run = () => original.call(q, text, params, options) as Promise<QueryResult<T>>;
      if (quiet) return run();
      if (skip(text)) {
        tx?.skipped();
        return run();
      }
      tx?.recorded();
      statements.push(text);
      const r = await run();
      await after(text);
      return r;
    };
  db.query = recording(db, query);
  db.transaction = async function <T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    const loud = !quiet;
    let begun = false;
    let skipped = false;
    const begin = () => {
      if (loud && !begun) {
        begun = true;
        statements.push('BEGIN');
      }
    };
    // Without `skip` nothing can leave the transaction out: its BEGIN goes in when it starts, as in the log.
    if (!opts.skip) begin();
    let ok = false;
    try {
      const result = await transaction.call(db, async (tx: Transaction) => {
        const txQuery = tx.query;
        tx.query = recording(tx, txQuery, { skipped: () => (skipped = true), recorded: begin });
        try {
          return await fn(tx);
        } finally {
          tx.query = txQuery;
        }
      });
      ok = true;
      return result as T;
    } finally {
      // A transaction that sent nothing still costs its BEGIN and COMMIT; one made only of skipped statements, none.
      if (!skipped) begin();
      if (begun) statements.push(ok ? 'COMMIT' : 'ROLLBACK');
    }
  };
  return {
    statements,
    reset: () => {
      statements.length = 0;
    },
    stop: () => {
      db.query = query;
      db.transaction = transaction;
    },
  };
}
