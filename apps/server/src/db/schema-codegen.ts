import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate, PostgresDialect } from 'kysely-codegen';
import * as prettier from 'prettier';
import type { Queryable } from './client.js';
import { typed } from './typed.js';

/** The committed output: `npm run db:types` writes it, schema-codegen.test.ts fails when it is stale. */
export const SCHEMA_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'schema.ts');

/** `check (status in ('a', 'b'))` as PostgreSQL prints it back: `CHECK ((status = ANY (ARRAY['a'::text, ...])))`. */
const TEXT_IN_LIST = /^CHECK \(\(\(?(\w+)\)?(?:::text)? = ANY \(\(?ARRAY\[(.+)\]\)?(?:::text\[\])?\)\)\)$/;
const TEXT_ITEM = /^'((?:[^']|'')*)'::(?:text|character varying)$/;

/**
 * Single-column text checks of the form `col in ('a', 'b')`, by table and column. Our migrations use them instead
 * of PostgreSQL enums; reading them keeps unions such as PaymentRow.status = 'chosen' | 'approved' in the types.
 */
async function textChecks(q: Queryable): Promise<Map<string, string[]>> {
  const r = await q.query<{ table_name: string; def: string }>(
    `select c.relname as table_name, pg_get_constraintdef(k.oid) as def
     from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace
     where k.contype = 'c' and n.nspname = 'public' and cardinality(k.conkey) = 1
     order by c.relname, k.conname`,
  );
  const out = new Map<string, string[]>();
  for (const { table_name, def } of r.rows) {
    const m = TEXT_IN_LIST.exec(def);
    if (!m) continue;
    const items = m[2]!.split(', ').map((s) => TEXT_ITEM.exec(s)?.[1]?.replaceAll("''", "'"));
    if (items.some((s) => s === undefined)) continue;
    const key = `${table_name}.${m[1]}`;
    // Two checks on one column: the type is what both allow.
    const prev = out.get(key);
    out.set(key, prev ? prev.filter((v) => items.includes(v)) : (items as string[]));
  }
  return out;
}

/**
 * The Kysely table types of the database q points at (all migrations applied), formatted as committed. Uses
 * kysely-codegen's PostgreSQL introspector over our own driver, so it runs on PGlite and on PostgreSQL alike.
 */
export async function generateSchemaTypes(q: Queryable): Promise<string> {
  const checks = await textChecks(q);
  const source = await generate({
    db: typed(q) as never,
    dialect: new PostgresDialect(),
    outFile: null,
    excludePattern: 'schema_migration',
    typeOnlyImports: true,
    postprocess: async ({ metadata }) => {
      for (const table of metadata.tables) {
        for (const column of table.columns) {
          const values = checks.get(`${table.name}.${column.name}`);
          if (values && column.dataType === 'text') column.enumValues = values;
        }
      }
      return metadata;
    },
  });
  const options = await prettier.resolveConfig(SCHEMA_FILE);
  return prettier.format(source, { ...options, filepath: SCHEMA_FILE });
}
