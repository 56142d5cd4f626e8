import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import type { RunningProduct } from './server.js';

/**
 * Every row of every table of the product's database as text, for "this must never be stored" scans. Call it after
 * `product.halt()` when the product runs on PGlite (one process per data dir).
 */
export async function dumpDatabase(product: RunningProduct): Promise<string> {
  const tablesSql = `select table_name from information_schema.tables
    where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`;
  const parts: string[] = [];
  if (product.env.DATABASE_URL) {
    const c = new pg.Client({ connectionString: product.env.DATABASE_URL });
    await c.connect();
    try {
      for (const { table_name } of (await c.query<{ table_name: string }>(tablesSql)).rows) {
        const rows = await c.query<{ row: string }>(`select t::text as row from "${table_name}" t`);
        parts.push(`## ${table_name}`, ...rows.rows.map((r) => r.row));
      }
    } finally {
      await c.end();
    }
  } else {
    const db = new PGlite(path.join(product.dataDir, 'pglite'), { extensions: { pg_trgm } });
    try {
      for (const { table_name } of (await db.query<{ table_name: string }>(tablesSql)).rows) {
        const rows = await db.query<{ row: string }>(`select t::text as row from "${table_name}" t`);
        parts.push(`## ${table_name}`, ...rows.rows.map((r) => r.row));
      }
    } finally {
      await db.close();
    }
  }
  return parts.join('\n');
}
