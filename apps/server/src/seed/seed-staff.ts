import { newPasswordSchema, type StaffRole } from '@paylink/shared';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';
import type { Db, Queryable } from '../db/client.js';
import { writeAudit, SYSTEM_ACTOR } from '../lib/audit.js';
import {
  hashPassword,
  unusablePasswordHash,
  findStaffByEmail,
  insertStaffUser,
  type StaffUserRow,
  issueStaffToken,
  verifyStaffToken,
} from '../modules/staff/index.js';

/** Owner of the data-dir token in sandbox mode when no admin is configured. */
const SANDBOX_ADMIN_EMAIL = 'admin@paylink.localhost';
const ADMIN_TOKEN_FILE = 'admin-token';

/** A staff user (created when missing) and a fresh token: for boot, tests and the e2e suite. */
export async function ensureStaffUser(
  q: Queryable,
  u: { email: string; name?: string; password?: string; role?: StaffRole },
): Promise<{ user: StaffUserRow; created: boolean }> {
  const existing = await findStaffByEmail(q, u.email);
  if (existing) return { user: existing, created: false };
  const inserted = await insertStaffUser(q, {
    email: u.email,
    name: u.name ?? '',
    passwordHash: u.password ? await hashPassword(u.password) : unusablePasswordHash(),
    role: u.role ?? 'admin',
  });
  // A concurrent boot may have inserted it between the two statements.
  const user = inserted ?? (await findStaffByEmail(q, u.email))!;
  if (inserted) {
    await writeAudit(q, {
      ...SYSTEM_ACTOR,
      action: 'staff.created',
      details: { staffUserId: user.id, email: user.email, role: user.role, by: 'boot' },
    });
  }
  return { user, created: Boolean(inserted) };
}

export async function staffToken(
  q: Queryable,
  u: { email: string; role?: StaffRole; password?: string },
): Promise<string> {
  const { user } = await ensureStaffUser(q, u);
  return (await issueStaffToken(q, { userId: user.id, label: 'test', ttlHours: null })).token;
}

/** The first admin from PAYLINK_ADMIN_EMAIL / PAYLINK_ADMIN_PASSWORD (created once; an existing user is left as is). */
export async function ensureConfiguredAdmin(db: Db, config: Config): Promise<StaffUserRow | null> {
  const email = config.PAYLINK_ADMIN_EMAIL;
  const password = config.PAYLINK_ADMIN_PASSWORD;
  if (!email && !password) return null;
  if (!email || !password) throw new Error('Set both PAYLINK_ADMIN_EMAIL and PAYLINK_ADMIN_PASSWORD, or neither.');
  // The same rule as a password an admin sets in the console.
  if (!newPasswordSchema.safeParse(password).success) {
    throw new Error('PAYLINK_ADMIN_PASSWORD must be at least 12 characters (and at most 1000).');
  }
  return db.transaction(
    async (tx) => (await ensureStaffUser(tx, { email, password, name: 'Admin', role: 'admin' })).user,
  );
}

/**
 * Sandbox mode: a staff token in `<data dir>/admin-token` (mode 0600) so the CLI works with no set-up. A token already
 * in the file is kept while it is valid.
 */
export async function ensureSandboxAdminToken(
  db: Db,
  config: Config,
  owner: StaffUserRow | null,
): Promise<{ path: string; token: string }> {
  const file = path.join(config.dataDir, ADMIN_TOKEN_FILE);
  if (fs.existsSync(file)) {
    const token = fs.readFileSync(file, 'utf8').trim();
    if (await verifyStaffToken(db, token)) return { path: file, token };
  }
  const token = await db.transaction(async (tx) => {
    const user = owner ?? (await ensureStaffUser(tx, { email: SANDBOX_ADMIN_EMAIL, name: 'Sandbox admin' })).user;
    return (await issueStaffToken(tx, { userId: user.id, label: 'data-dir admin-token', ttlHours: null })).token;
  });
  fs.mkdirSync(config.dataDir, { recursive: true });
  fs.writeFileSync(file, `${token}\n`, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
  return { path: file, token };
}
