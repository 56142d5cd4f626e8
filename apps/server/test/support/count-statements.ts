import type { Db, Transaction } from '../../src/db/client.js';

/**
 * Test support: the SQL statements a call sends, counted as the journey bench counts them in PostgreSQL's log (issue
 * 30): each query, and BEGIN and COMMIT for each transaction. Wraps the Db object in place until `stop()`.
 */
export function countStatements(db: Db): { statements: string[]; stop: () => void } {
  const statements: string[] = [];
  const { query, transaction } = db;
  const run = transaction.bind(db);
  const own = db as { -readonly [K in keyof Db]: Db[K] };
  own.query = (sql, params, options) => {
    statements.push(sql);
    return query.call(db, sql, params, options) as never;
  };
  own.transaction = <T>(fn: (tx: Transaction) => Promise<T>) =>
    run<T>(async (tx) => {
      statements.push('BEGIN');
      // In place: the transaction stays the one the database knows (databaseOf, inTransaction).
      const txQuery = tx.query.bind(tx);
      const txExec = tx.exec.bind(tx);
      const counted = tx as { -readonly [K in keyof Transaction]: Transaction[K] };
      counted.query = (sql, params, options) => {
        statements.push(sql);
        return txQuery(sql, params, options) as never;
      };
      counted.exec = (sql) => {
        statements.push(sql);
        return txExec(sql);
      };
      const result = await fn(tx);
      statements.push('COMMIT');
      return result;
    });
  return {
    statements,
    stop: () => {
      own.query = query;
      own.transaction = transaction;
    },
  };
}
