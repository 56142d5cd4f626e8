import { randomBytes } from 'node:crypto';
import { databaseOf, inTransaction, type Queryable } from '../db/client.js';

/** Secrets already read, per database (a test process opens many): they never change once created (issue 30). */
const known = new WeakMap<Queryable, Map<string, string>>();

/**
 * A secret every server process must share (signing keys in sandbox mode): taken from config when set, else
 * generated once and kept in the database so a second process on the same database uses the same value.
 * Read once per process: the row is never updated (first writer wins), so a value read back is the value for good.
 * A value this call created inside a transaction is not kept: the transaction may still roll back, and another
 * process would then create its own.
 */
export async function getOrCreateSecret(db: Queryable, name: string, configured?: string): Promise<string> {
  if (configured) return configured;
  const database = databaseOf(db);
  const cached = known.get(database)?.get(name);
  if (cached !== undefined) return cached;
  // One statement: the new row if this call inserted it, else the existing one (the CTE's insert is not visible to
  // the outer select, so exactly one of the two arms answers).
  // Neither arm answers when another process's insert of the same name committed while this statement waited on it
  // (the row is not in this statement's snapshot): the next statement's snapshot has it.
  let row: { value: string; created: boolean } | undefined;
  for (let attempt = 0; !row; attempt++) {
    if (attempt === 3) throw new Error(`app secret ${name}: neither created nor found`);
    const r = await db.query<{ value: string; created: boolean }>(
      `with ins as (insert into app_secret (name, value) values ($1, $2) on conflict (name) do nothing returning value)
       select value, true as created from ins
       union all select value, false as created from app_secret where name = $1`,
      [name, randomBytes(32).toString('base64url')],
    );
    row = r.rows[0];
  }
  if (!row.created || !inTransaction(db)) {
    let perDb = known.get(database);
    if (!perDb) known.set(database, (perDb = new Map()));
    perDb.set(name, row.value);
  }
  return row.value;
}

/** After deleting secrets (the reseal at boot with PAYLINK_SECRETS_KEY): this process reads them again if asked. */
export function forgetSecrets(db: Queryable, names: string[]): void {
  const perDb = known.get(databaseOf(db));
  for (const n of names) perDb?.delete(n);
}
