import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb } from '../../test/support/test-db.js';
import type { Db } from './client.js';
import { MIGRATIONS_DIR, migrate } from './migrate.js';

/** Runs on PGlite, and on PostgreSQL when DATABASE_URL is set (test-db.ts picks). */
// One database for the file: each case uses its own file and table names.
let db: Db;
beforeAll(async () => {
  db = await createTestDb();
});
const dirs: string[] = [];
afterAll(async () => {
  await db?.close();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function migrationsDir(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paylink-migrate-'));
  dirs.push(dir);
  for (const [name, sql] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), sql);
  return dir;
}

describe('migrate', () => {
  it('applies the product migrations once: a second run applies nothing', async () => {
    expect(await migrate(db)).toEqual([]);
    const rows = await db.query<{ name: string }>(
      "select name from schema_migration where name not like '9%' order by name",
    );
    const files = fs.readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith('.sql'));
    expect(rows.rows.map((r) => r.name)).toEqual(files.sort());
  });

  it('runs each file whole: semicolons in strings, comments and function bodies are not statement ends', async () => {
    const dir = migrationsDir({
      '9001_tricky.sql': `
        -- a comment; with a semicolon
        create table t9001 (v text not null);
        /* block; comment */
        insert into t9001 (v) values ('a;b'), ('it''s; fine'), (E'c\\'; d');
        create function f9001() returns text language plpgsql as $body$
          begin
            return 'x;y';
          end;
        $body$;
        insert into t9001 (v) select f9001();
      `,
    });
    expect(await migrate(db, dir)).toEqual(['9001_tricky.sql']);
    const rows = await db.query<{ v: string }>('select v from t9001 order by v');
    expect(rows.rows.map((r) => r.v)).toEqual(['a;b', "c'; d", "it's; fine", 'x;y']);
  });

  it('rolls a failing file back whole and does not record it', async () => {
    const dir = migrationsDir({
      '9002_ok.sql': 'create table t9002 (id int);',
      '9003_broken.sql': 'create table t9003 (id int); insert into t9003 values (1); select no_such_column from t9002;',
    });
    await expect(migrate(db, dir)).rejects.toThrow(/no_such_column/);
    const names = await db.query<{ name: string }>(
      `select name from schema_migration where name in ('9002_ok.sql', '9003_broken.sql')`,
    );
    expect(names.rows.map((r) => r.name)).toEqual(['9002_ok.sql']);
    const t9003 = await db.query<{ n: string | null }>(`select to_regclass('t9003')::text as n`);
    expect(t9003.rows[0]!.n).toBeNull();
  });

  it('applies each file once when two migrations run at the same time (advisory lock)', async () => {
    const dir = migrationsDir({
      '9004_a.sql': 'create table t9004 (id int); insert into t9004 values (1);',
      '9005_b.sql': 'insert into t9004 values (2);',
    });
    const [a, b] = await Promise.all([migrate(db, dir), migrate(db, dir)]);
    expect([...a, ...b].sort()).toEqual(['9004_a.sql', '9005_b.sql']);
    const rows = await db.query<{ id: number }>('select id from t9004 order by id');
    expect(rows.rows.map((r) => r.id)).toEqual([1, 2]);
  });
});
