import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { writeAudit } from '../../lib/audit.js';
import { AppError } from '../../lib/errors.js';
import type { Actor } from '../../lib/audit.js';
import { checkStaffCredentials, recordSignIn } from './check-credentials.js';
import { toStaffUser } from './staff-queries.js';
import { issueStaffToken } from './staff-tokens.js';

const LOGIN_TOKEN_TTL_HOURS = 12;

/**
 * E-mail + password (+ code when two-factor is on) → a 12-hour staff token for the CLI. Failed tries slow the next
 * one down (console-auth/sign-in-throttle.ts), never lock the account. In production a user must have set up
 * two-factor in the console first.
 */
export async function loginStaff(opts: {
  db: Db;
  config: Config;
  actor: Actor;
  email: string;
  password: string;
  code?: string;
  ip: string;
}) {
  const result = await checkStaffCredentials(opts);
  if (result.kind === 'code_required') {
    throw new AppError('code_required', 'Two-factor sign-in is on: send the code from the authenticator app.');
  }
  if (result.enrolmentRequired) {
    throw new AppError(
      'two_factor_enrolment_required',
      'Set up two-factor sign-in in the console (/console) first, then sign in here with the code.',
    );
  }
  const { user } = result;
  if (user.password_change_required_at) {
    throw new AppError(
      'password_change_required',
      'An admin reset your password: sign in to the console (/console) and choose a new one first.',
    );
  }
  const out = await opts.db.transaction(async (tx) => {
    const { token, expiresAt } = await issueStaffToken(tx, {
      userId: user.id,
      label: 'login',
      ttlHours: LOGIN_TOKEN_TTL_HOURS,
    });
    await writeAudit(tx, {
      ...opts.actor,
      actorType: 'staff',
      actorId: user.id,
      action: 'staff.login',
      details: { via: 'token' },
    });
    return { token, expiresAt: expiresAt ? new Date(expiresAt).toISOString() : null, user: toStaffUser(user) };
  });
  await recordSignIn(opts.db, user.id);
  return out;
}
