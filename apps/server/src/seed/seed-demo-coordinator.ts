import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import { getOrCreateSecret } from '../lib/secrets.js';
import { verifyPassword, findStaffByEmail } from '../modules/staff/index.js';
import { ensureStaffUser } from './seed-staff.js';

const DEMO_COORDINATOR_EMAIL = 'coordinator@paylink.localhost';

/**
 * Sandbox mode: a demo coordinator for the console, created once with a random password kept in app_secret (so every
 * start prints the same one, and another database gets its own). Returns null outside sandbox mode. When someone has
 * changed the password since, the printed password is null (the banner says so).
 */
export async function ensureDemoCoordinator(
  db: Db,
  config: Config,
): Promise<{ email: string; password: string | null } | null> {
  if (config.mode !== 'sandbox') return null;
  const secret = await getOrCreateSecret(db, 'demo-coordinator-password');
  const password = `demo-${secret.slice(0, 16)}`;
  await db.transaction((tx) =>
    ensureStaffUser(tx, { email: DEMO_COORDINATOR_EMAIL, name: 'Demo Coordinator', role: 'coordinator', password }),
  );
  const user = await findStaffByEmail(db, DEMO_COORDINATOR_EMAIL);
  const same = user && !user.disabled_at && (await verifyPassword(password, user.password_hash));
  return { email: DEMO_COORDINATOR_EMAIL, password: same ? password : null };
}
