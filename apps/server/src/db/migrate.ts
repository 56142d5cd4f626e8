import fs from 'node:fs';
import path from 'node:path';
import type { Db } from './client.js';

import { MIGRATIONS_DIR } from './migrations-dir.js';

export { MIGRATIONS_DIR };

/**
 * Forward-only: applies every file of migrations/ not yet recorded, in name order, each in its own transaction.
 * An advisory lock keeps two processes starting at once from applying the same file twice.
 */
export async function migrate(db: Db, dir = MIGRATIONS_DIR): Promise<string[]> {
  const files = fs
    .readdirSync(dir)
    .filter((f) => /^\d{4}_[a-z0-9_-]+\.sql$/.test(f))
    .sort();
  // Under the same lock as the files: "create table if not exists" is not safe when two processes run it at once.
  await db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock(7243001)');
    await tx.query(
      'create table if not exists schema_migration (name text primary key, applied_at timestamptz not null default now())',
    );
  });
  const applied: string[] = [];
  for (const file of files) {
    const sql = fs.readFileSync(path.join(dir, file), 'utf8');
    const done = await db.transaction(async (tx) => {
      await tx.query('select pg_advisory_xact_lock(7243001)');
      const seen = await tx.query('select 1 from schema_migration where name = $1', [file]);
      if (seen.rowCount > 0) return false;
      // The whole file at once (simple query protocol / PGlite exec): no statement splitter to get quoting wrong.
      await tx.exec(sql);
      await tx.query('insert into schema_migration (name) values ($1)', [file]);
      return true;
    });
    if (done) applied.push(file);
  }
  return applied;
}
