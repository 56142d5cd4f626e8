import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * A fresh, empty PostgreSQL database on `serverUrl`'s server, for tests that need several "processes" (pools or real
 * server processes) on one database of their own. `drop` closes nothing: close your pools first.
 */
export async function throwawayDatabase(
  serverUrl: string,
  prefix: string,
): Promise<{ url: string; name: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    name,
    drop: async () => {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      try {
        await c.query(`drop database if exists ${name} with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}
