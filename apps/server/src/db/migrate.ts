import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from './client.js';

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../migrations');

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
      // Multi-statement files: run them statement by statement inside this transaction.
      for (const stmt of splitSql(sql)) await tx.query(stmt);
      await tx.query('insert into schema_migration (name) values ($1)', [file]);
      return true;
    });
    if (done) applied.push(file);
  }
  return applied;
}

/** Splits on semicolons outside quotes, dollar-quoted bodies and comments. */
export function splitSql(sql: string): string[] {
  const out: string[] = [];
  let cur = '';
  let i = 0;
  while (i < sql.length) {
    const ch = sql[i]!;
    const rest = sql.slice(i);
    if (rest.startsWith('--')) {
      const end = sql.indexOf('\n', i);
      i = end === -1 ? sql.length : end + 1;
      continue;
    }
    if (rest.startsWith('/*')) {
      const end = sql.indexOf('*/', i + 2);
      i = end === -1 ? sql.length : end + 2;
      continue;
    }
    if (ch === "'") {
      const end = sql.indexOf("'", i + 1);
      cur += sql.slice(i, end + 1);
      i = end + 1;
      continue;
    }
    const dollar = /^\$[A-Za-z_]*\$/.exec(rest);
    if (dollar) {
      const tag = dollar[0];
      const end = sql.indexOf(tag, i + tag.length);
      cur += sql.slice(i, end + tag.length);
      i = end + tag.length;
      continue;
    }
    if (ch === ';') {
      if (cur.trim()) out.push(cur.trim());
      cur = '';
      i++;
      continue;
    }
    cur += ch;
    i++;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}
