/**
 * `npm run db:types`: applies every migration to a fresh in-memory PGlite and writes the Kysely table types to
 * apps/server/src/db/schema.ts. Run it after adding a migration; schema-codegen.test.ts fails until you do.
 */
import fs from 'node:fs';
import { openPglite } from '../apps/server/src/db/client.js';
import { migrate } from '../apps/server/src/db/migrate.js';
import { generateSchemaTypes, SCHEMA_FILE } from '../apps/server/src/db/schema-codegen.js';

const db = await openPglite();
try {
  await migrate(db);
  fs.writeFileSync(SCHEMA_FILE, await generateSchemaTypes(db));
  console.log(`wrote ${SCHEMA_FILE}`);
} finally {
  await db.close();
}
