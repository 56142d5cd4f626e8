import {
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type Selectable,
} from 'kysely';
import type { Queryable } from './client.js';
import type { DB } from './schema.js';

/** The typed query builder over one Queryable (the pool or a transaction). Table and row types come from schema.ts. */
export type TypedDb = Kysely<DB>;
/** A row of a table as selected (`select *`): Row<'payment'> replaces the hand-written PaymentRow. */
export type Row<T extends keyof DB> = Selectable<DB[T]>;

const WRITE_KINDS = new Set(['InsertQueryNode', 'UpdateQueryNode', 'DeleteQueryNode', 'MergeQueryNode']);

/**
 * Kysely's one "connection" is our Queryable, so PGlite, node-postgres, the DatabaseUnavailable mapping and
 * Db.transaction() all stay as they are. Kysely's own transaction() is refused: a transaction is opened with
 * db.transaction(async (tx) => typed(tx)...) so raw and typed queries in one use case share it.
 */
class QueryableDriver implements Driver {
  constructor(private readonly q: Queryable) {}
  async init() {}
  async acquireConnection(): Promise<DatabaseConnection> {
    const q = this.q;
    return {
      async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
        const r = await q.query<R>(compiled.sql, [...compiled.parameters]);
        return WRITE_KINDS.has(compiled.query.kind)
          ? { rows: r.rows, numAffectedRows: BigInt(r.rowCount) }
          : { rows: r.rows };
      },
      // eslint-disable-next-line require-yield -- no driver we wrap streams; refusing beats buffering silently
      async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
        throw new Error('streamQuery is not supported over Queryable');
      },
    };
  }
  beginTransaction(): Promise<void> {
    return Promise.reject(new Error('Use Db.transaction(async (tx) => typed(tx)...), not Kysely transactions'));
  }
  async commitTransaction() {}
  async rollbackTransaction() {}
  async releaseConnection() {}
  async destroy() {}
}

const cache = new WeakMap<Queryable, TypedDb>();

/** The typed builder for q; one per Queryable (cached), so calling it in every query function is cheap. */
export function typed(q: Queryable): TypedDb {
  let k = cache.get(q);
  if (!k) {
    k = new Kysely<DB>({
      dialect: {
        createAdapter: () => new PostgresAdapter(),
        createDriver: () => new QueryableDriver(q),
        createIntrospector: (db) => new PostgresIntrospector(db),
        createQueryCompiler: () => new PostgresQueryCompiler(),
      },
    });
    cache.set(q, k);
  }
  return k;
}
