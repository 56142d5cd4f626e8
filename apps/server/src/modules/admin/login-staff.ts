import type { Db } from '../../db/client.js';
import { writeAudit } from '../../lib/audit.js';
import { AppError } from '../../lib/errors.js';
import type { Actor } from '../links/link-use-case.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { findStaffByEmail, toStaffUser } from './staff-queries.js';
import { issueStaffToken } from './staff-tokens.js';

export const LOGIN_TOKEN_TTL_HOURS = 12;
const MAX_FAILURES = 10;
const WINDOW_MINUTES = 15;

let dummyHash: Promise<string> | undefined;

/**
 * E-mail + password → a 12-hour staff token. Failures are counted from the audit log (so every process shares the
 * limit): 10 failures for one address within 15 minutes → 429.
 */
export async function loginStaff(opts: { db: Db; actor: Actor; email: string; password: string }) {
  const email = opts.email.trim().toLowerCase();
  const recent = await opts.db.query<{ n: number }>(
    `select count(*)::int as n from audit_event
     where action = 'staff.login_failed' and details->>'email' = $1 and at > now() - make_interval(mins => $2)`,
    [email, WINDOW_MINUTES],
  );
  if ((recent.rows[0]?.n ?? 0) >= MAX_FAILURES) {
    throw new AppError(429, 'too_many_attempts', `Too many failed sign-ins. Try again in ${WINDOW_MINUTES} minutes.`);
  }
  const user = await findStaffByEmail(opts.db, email);
  // Same work whether or not the address exists, so timing does not tell.
  const ok = user
    ? await verifyPassword(opts.password, user.password_hash)
    : await verifyPassword(opts.password, await (dummyHash ??= hashPassword('not-a-password'))).then(() => false);
  if (!user || !ok || user.disabled_at) {
    await writeAudit(opts.db, { ...opts.actor, action: 'staff.login_failed', details: { email } });
    throw new AppError(401, 'invalid_credentials', 'The e-mail or password is wrong.');
  }
  return opts.db.transaction(async (tx) => {
    const { token, expiresAt } = await issueStaffToken(tx, {
      userId: user.id,
      label: 'login',
      ttlHours: LOGIN_TOKEN_TTL_HOURS,
    });
    await writeAudit(tx, { ...opts.actor, actorType: 'staff', actorId: user.id, action: 'staff.login' });
    return { token, expiresAt: expiresAt ? new Date(expiresAt).toISOString() : null, user: toStaffUser(user) };
  });
}
