/**
 * Makes the migrated empty embedded database that a fresh data dir starts from (apps/server/src/db/pglite-template.ts,
 * decision 0181), unless one for this PGlite and these migrations exists. `npm run build` runs it beside the Vite
 * builds (scripts/build.ts). Older templates in the cache are removed.
 *   node --import tsx scripts/pglite-template.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import { openPglite } from '../apps/server/src/db/client.js';
import { migrate } from '../apps/server/src/db/migrate.js';
import { TEMPLATE_CACHE, templatePath } from '../apps/server/src/db/pglite-template.js';

/** Returns the template's directory and whether it was made now. */
export async function makeTemplate(
  cache = TEMPLATE_CACHE,
): Promise<{ dir: string; made: boolean; migrateMs?: number }> {
  const dir = templatePath(cache);
  if (fs.existsSync(path.join(dir, 'PG_VERSION'))) return { dir, made: false };
  fs.mkdirSync(cache, { recursive: true });
  const tmp = `${dir}.making-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  let migrateMs = 0;
  try {
    const db = await openPglite(tmp);
    const opened = Date.now();
    await migrate(db);
    migrateMs = Date.now() - opened;
    await db.close();
    // Atomic: a start never sees a half-made template. Another build that finished first wins.
    fs.renameSync(tmp, dir);
  } catch (err) {
    fs.rmSync(tmp, { recursive: true, force: true });
    if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) throw err;
    return { dir, made: false };
  }
  for (const e of fs.readdirSync(cache)) {
    const other = path.join(cache, e);
    if (e.startsWith('pglite-') && other !== dir && !e.includes('.making-')) {
      fs.rmSync(other, { recursive: true, force: true });
    }
  }
  return { dir, made: true, migrateMs };
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const started = Date.now();
  try {
    const { dir, made, migrateMs } = await makeTemplate();
    const rel = path.relative(process.cwd(), dir);
    console.log(
      made
        ? `database template: ${rel} made in ${Date.now() - started} ms (migrations ${migrateMs} ms)`
        : `database template: ${rel} (up to date)`,
    );
  } catch (err) {
    // Only a faster first start is lost: a fresh data dir is then created at start, as without a template.
    console.error(`database template not made (${(err as Error).message}): a fresh data dir is created at start`);
  }
}
