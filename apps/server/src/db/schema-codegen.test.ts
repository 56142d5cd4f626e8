import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb } from '../../test/support/test-db.js';
import type { Db } from './client.js';
import { generateSchemaTypes, SCHEMA_FILE } from './schema-codegen.js';
import { typed } from './typed.js';

let db: Db;
beforeAll(async () => {
  db = await createTestDb();
}, 60_000);
afterAll(async () => {
  await db.close();
});

describe('generated table types (db/schema.ts)', () => {
  it('match the migrated schema: a migration without `npm run db:types` fails here', async () => {
    const fresh = await generateSchemaTypes(db);
    expect(fresh, 'apps/server/src/db/schema.ts is stale: run `npm run db:types` and commit it').toBe(
      fs.readFileSync(SCHEMA_FILE, 'utf8'),
    );
  }, 30_000);

  it('keep text checks as unions, so rows narrow as the hand-written types did', async () => {
    const source = fs.readFileSync(SCHEMA_FILE, 'utf8');
    expect(source).toMatch(/export interface Payment \{[^}]*status: Generated<'chosen' \| 'approved'>;/);
  });
});

describe('typed(q): Kysely over our Queryable', () => {
  it('runs inside Db.transaction and rolls back with it', async () => {
    await expect(
      db.transaction(async (tx) => {
        await typed(tx).insertInto('boot_task').values({ name: 'typed-rollback' }).execute();
        const seen = await typed(tx)
          .selectFrom('boot_task')
          .select('name')
          .where('name', '=', 'typed-rollback')
          .execute();
        expect(seen).toEqual([{ name: 'typed-rollback' }]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    const after = await typed(db).selectFrom('boot_task').selectAll().where('name', '=', 'typed-rollback').execute();
    expect(after).toEqual([]);
  });

  it('reports affected rows of writes and refuses Kysely transactions', async () => {
    const r = await typed(db).insertInto('boot_task').values({ name: 'typed-count' }).executeTakeFirstOrThrow();
    expect(r.numInsertedOrUpdatedRows).toBe(1n);
    const d = await typed(db).deleteFrom('boot_task').where('name', '=', 'typed-count').executeTakeFirstOrThrow();
    expect(d.numDeletedRows).toBe(1n);
    await expect(
      typed(db)
        .transaction()
        .execute(async () => undefined),
    ).rejects.toThrow(/Db\.transaction/);
  });
});
