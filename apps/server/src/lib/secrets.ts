import { randomBytes } from 'node:crypto';
import type { Queryable } from '../db/client.js';

/**
 * A secret every server process must share (signing keys in sandbox mode): taken from config when set, else
 * generated once and kept in the database so a second process on the same database uses the same value.
 */
export async function getOrCreateSecret(db: Queryable, name: string, configured?: string): Promise<string> {
  if (configured) return configured;
  await db.query('insert into app_secret (name, value) values ($1, $2) on conflict (name) do nothing', [
    name,
    randomBytes(32).toString('base64url'),
  ]);
  const r = await db.query<{ value: string }>('select value from app_secret where name = $1', [name]);
  return r.rows[0]!.value;
}
