import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { writeAudit } from '../../lib/audit.js';
import { AppError } from '../../lib/errors.js';
import type { Actor } from '../../lib/audit.js';
import { hashPassword, verifyPassword } from '../admin/passwords.js';
import type { StaffUserRow } from '../admin/staff-queries.js';
import { assertSignInAllowed, recordSignInFailure } from './sign-in-throttle.js';
import { hashRecoveryCode, matchTotp, openSecret } from './totp.js';

export interface StaffAuthRow extends StaffUserRow {
  totp_secret: string | null;
  totp_enabled_at: Date | null;
  totp_last_step: string | number | null;
  last_sign_in_at: Date | null;
}

export type CredentialResult =
  { kind: 'ok'; user: StaffAuthRow; enrolmentRequired: boolean } | { kind: 'code_required'; user: StaffAuthRow };

let dummyHash: Promise<string> | undefined;

/** Two-factor is required of every staff account in production mode; optional in sandbox. */
export const twoFactorRequired = (config: Config) => config.mode === 'production';

/**
 * E-mail + password (+ a TOTP or recovery code when two-factor is on), shared by the console's cookie sign-in and the
 * CLI's token sign-in. Wrong passwords and codes are recorded for the growing delay (sign-in-throttle.ts) and audited.
 */
export async function checkStaffCredentials(opts: {
  db: Db;
  config: Config;
  actor: Actor;
  email: string;
  password: string;
  code?: string;
  ip: string;
}): Promise<CredentialResult> {
  const email = opts.email.trim().toLowerCase();
  const { db, ip } = opts;
  await assertSignInAllowed(db, { email, ip });
  const r = await db.query<StaffAuthRow>('select * from staff_user where email = $1', [email]);
  const user = r.rows[0];
  // Same work whether or not the address exists, so timing does not tell.
  const ok = user
    ? await verifyPassword(opts.password, user.password_hash)
    : await verifyPassword(opts.password, await (dummyHash ??= hashPassword('not-a-password'))).then(() => false);
  const fail = async (reason: 'password' | 'code') => {
    await recordSignInFailure(db, { email, ip });
    await writeAudit(db, { ...opts.actor, action: 'staff.login_failed', details: { email, reason } });
  };
  if (!user || !ok || user.disabled_at) {
    await fail('password');
    throw new AppError('invalid_credentials', 'The e-mail or password is wrong.');
  }
  if (user.totp_enabled_at && user.totp_secret) {
    const code = opts.code?.trim();
    if (!code) return { kind: 'code_required', user };
    if (!(await acceptSecondFactor(db, user, code))) {
      await fail('code');
      throw new AppError('invalid_code', 'The code is wrong or was already used.');
    }
  }
  return { kind: 'ok', user, enrolmentRequired: twoFactorRequired(opts.config) && !user.totp_enabled_at };
}

/** A current authenticator code not used before, or an unused recovery code (which is then spent). */
export async function acceptSecondFactor(db: Db, user: StaffAuthRow, code: string): Promise<boolean> {
  if (/^\d{6}$/.test(code)) {
    if (!user.totp_secret) return false;
    const step = matchTotp(code, await openSecret(db, user.totp_secret));
    if (step === null) return false;
    const r = await db.query(
      `update staff_user set totp_last_step = $2 where id = $1 and (totp_last_step is null or totp_last_step < $2)`,
      [user.id, step],
    );
    return (r.rowCount ?? 0) === 1;
  }
  const r = await db.query(
    `update staff_recovery_code set used_at = now()
     where staff_user_id = $1 and code_hash = $2 and used_at is null`,
    [user.id, hashRecoveryCode(code)],
  );
  return (r.rowCount ?? 0) === 1;
}

export async function recordSignIn(db: Db, userId: string): Promise<void> {
  await db.query('update staff_user set last_sign_in_at = now() where id = $1', [userId]);
}
