import type { Config } from '../config.js';
import type { Db } from '../db/client.js';

/**
 * Outside services, each behind an interface (types.ts in its folder) with a real and a sandbox implementation,
 * picked here by config. Issues add their provider to this object.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Providers {}

export async function loadProviders(_opts: { config: Config; db: Db }): Promise<Providers> {
  return {};
}
