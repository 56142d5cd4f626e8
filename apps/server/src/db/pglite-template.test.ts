import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTemplate } from '../../../../scripts/pglite-template.js';
import { openPglite, type Db } from './client.js';
import { MIGRATIONS_DIR, migrate } from './migrate.js';
import { restoreTemplate, templatePath } from './pglite-template.js';

/** Decision 0181: a fresh data dir copied from the build's template is the database creating it would give. */
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'paylink-template-'));
const cache = path.join(tmp, 'cache');
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Everything the migrations define: tables and columns, constraints, indexes, functions, triggers, sequences. */
async function schema(db: Db) {
  const q = async (sql: string) => (await db.query(sql)).rows;
  return {
    columns: await q(`select table_name, column_name, data_type, column_default, is_nullable
      from information_schema.columns where table_schema = 'public' order by 1, 2`),
    constraints: await q(`select conrelid::regclass::text as rel, conname, pg_get_constraintdef(oid) as def
      from pg_constraint where connamespace = 'public'::regnamespace order by 1, 2`),
    indexes: await q(`select indexname, indexdef from pg_indexes where schemaname = 'public' order by 1`),
    functions: await q(`select proname, pg_get_functiondef(oid) as def from pg_proc
      where pronamespace = 'public'::regnamespace order by 1, 2`),
    triggers: await q(`select tgrelid::regclass::text as rel, tgname, pg_get_triggerdef(oid) as def
      from pg_trigger where not tgisinternal order by 1, 2`),
    sequences: await q(`select sequencename, last_value from pg_sequences where schemaname = 'public' order by 1`),
    migrations: (await q('select name from schema_migration order by name')).map((r) => r.name),
    rows: await q(`select relname, n_live_tup from pg_stat_user_tables where relname <> 'schema_migration'
      and n_live_tup > 0 order by 1`),
  };
}

let made: { dir: string; made: boolean };
beforeAll(async () => {
  made = await makeTemplate(cache);
});

describe('the embedded database template', () => {
  it('is made once per PGlite version and migration set', async () => {
    expect(made).toMatchObject({ made: true });
    expect(made.dir).toBe(templatePath(cache));
    expect(await makeTemplate(cache)).toEqual({ dir: made.dir, made: false });
  });

  it('gives a fresh data dir the same schema, migrations and (no) rows as creating it', async () => {
    const dataDir = path.join(tmp, 'data', 'pglite');
    expect(restoreTemplate(dataDir, cache)).toBe(true);
    const copied = await openPglite(dataDir);
    const created = await openPglite();
    try {
      expect(await migrate(copied)).toEqual([]);
      expect(await migrate(created)).not.toEqual([]);
      const a = await schema(copied);
      expect(a.migrations).toEqual(
        fs
          .readdirSync(MIGRATIONS_DIR)
          .filter((f) => f.endsWith('.sql'))
          .sort(),
      );
      expect(a.rows).toEqual([]);
      expect(a).toEqual(await schema(created));
      // A working database, not only a catalogue: writes and reads back.
      await copied.query("insert into schema_migration (name) values ('9999_probe.sql')");
      expect((await copied.query('select count(*)::int as n from schema_migration')).rows[0]).toEqual({
        n: a.migrations.length + 1,
      });
    } finally {
      await copied.close();
      await created.close();
    }
  });

  it('is not used for an existing data dir, nor for another migration set', () => {
    const existing = path.join(tmp, 'existing');
    fs.mkdirSync(existing);
    fs.writeFileSync(path.join(existing, 'marker'), '');
    expect(restoreTemplate(existing, cache)).toBe(false);
    expect(fs.readdirSync(existing)).toEqual(['marker']);

    const otherMigrations = path.join(tmp, 'migrations');
    fs.cpSync(MIGRATIONS_DIR, otherMigrations, { recursive: true });
    fs.writeFileSync(path.join(otherMigrations, '9999_new.sql'), 'create table added_later (id int);');
    expect(templatePath(cache, otherMigrations)).not.toBe(made.dir);
    const dataDir = path.join(tmp, 'other', 'pglite');
    expect(restoreTemplate(dataDir, cache, otherMigrations)).toBe(false);
    expect(fs.existsSync(dataDir)).toBe(false);
  });
});
