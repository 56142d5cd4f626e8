import type { Config } from '../../config.js';
import type { Db, Queryable } from '../../db/client.js';
import { typed } from '../../db/typed.js';
import { writeAudit } from '../../lib/audit.js';
import { AppError } from '../../lib/errors.js';
import type { Actor } from '../../lib/audit.js';
import { hashPassword, verifyPassword } from './passwords.js';
import type { StaffUserRow } from './staff-queries.js';
import { enqueueMessage } from '../../messages/index.js';
import { loadPracticeInfo } from '../../messages/index.js';
import { twoFactorLockedEmail } from './lockout-email.js';
import {
  CODE_CAP,
  countCodeAttempts,
  markCodeAttempt,
  reserveSignInAttempt,
  settleFailed,
  settleSucceeded,
  type SignInAttempt,
} from './sign-in-throttle.js';
import { hashRecoveryCode, matchTotp, openSecret } from './totp.js';
import type { SecretSource } from '../../lib/secret-keys.js';

export interface StaffAuthRow extends StaffUserRow {
  totp_secret: string | null;
  totp_enabled_at: Date | null;
  totp_last_step: string | number | null;
  last_sign_in_at: Date | null;
  totp_locked_at: Date | null;
  password_change_required_at: Date | null;
}

/** The signed-in user as sign-in and the session view read it. */
export async function findStaffAuthUser(q: Queryable, id: string): Promise<StaffAuthRow> {
  return typed(q).selectFrom('staff_user').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

export type CredentialResult =
  { kind: 'ok'; user: StaffAuthRow; enrolmentRequired: boolean } | { kind: 'code_required'; user: StaffAuthRow };

let dummyHash: Promise<string> | undefined;

/** Two-factor is required of every staff account in production mode; optional in sandbox. */
export const twoFactorRequired = (config: Config) => config.mode === 'production';

/**
 * E-mail + password (+ a TOTP or recovery code when two-factor is on), shared by the console's cookie sign-in and the
 * CLI's token sign-in. The attempt is reserved before scrypt runs (sign-in-throttle.ts, docs/decisions/0193); wrong
 * passwords and codes stay recorded for the growing delay and are audited; wrong codes are capped per account.
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
  const attempt = await reserveSignInAttempt(db, { email, ip });
  const r = await db.query<StaffAuthRow>('select * from staff_user where email = $1', [email]);
  const user = r.rows[0];
  // Same work whether or not the address exists, so timing does not tell.
  const ok = user
    ? await verifyPassword(opts.password, user.password_hash)
    : await verifyPassword(opts.password, await (dummyHash ??= hashPassword('not-a-password'))).then(() => false);
  if (!user || !ok || user.disabled_at) {
    await settleFailed(db, attempt, 'password');
    await writeAudit(db, { ...opts.actor, action: 'staff.login_failed', details: { email, reason: 'password' } });
    throw new AppError('invalid_credentials', 'The e-mail or password is wrong.');
  }
  if (user.totp_enabled_at && user.totp_secret) {
    const code = opts.code?.trim();
    if (!code) {
      await settleSucceeded(db, attempt);
      return { kind: 'code_required', user };
    }
    await checkSecondFactor({ db, config: opts.config, actor: opts.actor, user, code, attempt });
  }
  await settleSucceeded(db, attempt);
  return { kind: 'ok', user, enrolmentRequired: twoFactorRequired(opts.config) && !user.totp_enabled_at };
}

const isTotpCode = (code: string) => /^\d{6}$/.test(code);

/**
 * A second-factor code under the account's cap (docs/decisions/0193): while the account has CODE_CAP.max wrong codes
 * (in flight included) in 15 minutes, or is locked, authenticator codes are refused (403 two_factor_locked) without
 * being checked; a recovery code still works and opens the account again. Reaching the cap locks the account and
 * e-mails its owner once. Throws invalid_code for a wrong code (recorded as a failure of the reserved attempt).
 */
export async function checkSecondFactor(opts: {
  db: Db;
  config: Config;
  actor: Actor;
  user: StaffAuthRow;
  code: string;
  attempt: SignInAttempt;
  wrongCode?: () => AppError;
}): Promise<void> {
  const { db, user, code, attempt } = opts;
  const recovery = !isTotpCode(code);
  const locked = await db.transaction(async (tx) => {
    const row = await tx.query<{ totp_locked_at: Date | null }>(
      'select totp_locked_at from staff_user where id = $1 for update',
      [user.id],
    );
    let isLocked = Boolean(row.rows[0]?.totp_locked_at);
    if (!isLocked && (await countCodeAttempts(tx, user.email, attempt.id)) >= CODE_CAP.max) {
      await lockSecondFactor(tx, opts);
      isLocked = true;
    }
    // In flight, this attempt counts towards the cap (a refused authenticator code is a failure too).
    await markCodeAttempt(tx, attempt);
    return isLocked;
  });
  if (locked && !recovery) {
    await settleFailed(db, attempt, 'code');
    await writeAudit(db, {
      ...opts.actor,
      action: 'staff.login_failed',
      details: { email: user.email, reason: 'locked' },
    });
    throw new AppError(
      'two_factor_locked',
      'Too many wrong codes: codes from the app are refused for this account. Sign in with a recovery code, or ask an admin to reset two-factor sign-in.',
    );
  }
  if (!(await acceptSecondFactor({ db, config: opts.config }, user, code))) {
    await settleFailed(db, attempt, 'code');
    await writeAudit(db, {
      ...opts.actor,
      action: 'staff.login_failed',
      details: { email: user.email, reason: 'code' },
    });
    await db.transaction(async (tx) => {
      const row = await tx.query<{ totp_locked_at: Date | null }>(
        'select totp_locked_at from staff_user where id = $1 for update',
        [user.id],
      );
      if (!row.rows[0]?.totp_locked_at && (await countCodeAttempts(tx, user.email)) >= CODE_CAP.max) {
        await lockSecondFactor(tx, opts);
      }
    });
    throw opts.wrongCode?.() ?? new AppError('invalid_code', 'The code is wrong or was already used.');
  }
  if (locked) {
    await db.transaction(async (tx) => {
      await tx.query('update staff_user set totp_locked_at = null where id = $1', [user.id]);
      await writeAudit(tx, { ...opts.actor, actorType: 'staff', actorId: user.id, action: 'staff.2fa_unlocked' });
    });
  }
}

/** Locks authenticator codes for the account, audits it and e-mails the owner (in the caller's transaction). */
async function lockSecondFactor(tx: Queryable, opts: { config: Config; actor: Actor; user: StaffAuthRow }) {
  await tx.query('update staff_user set totp_locked_at = now() where id = $1', [opts.user.id]);
  await writeAudit(tx, {
    ...opts.actor,
    action: 'staff.2fa_locked',
    details: { staffUserId: opts.user.id, wrongCodes: CODE_CAP.max, windowMinutes: CODE_CAP.windowMinutes },
  });
  const practice = await loadPracticeInfo(tx, { name: opts.config.PRACTICE_NAME });
  const mail = twoFactorLockedEmail({
    practice,
    email: opts.user.email,
    wrongCodes: CODE_CAP.max,
    consoleUrl: `${opts.config.publicUrl}/console`,
  });
  await enqueueMessage(tx, { channel: 'email', to: opts.user.email, ...mail, kind: 'staff-2fa-locked' });
}

/** A current authenticator code not used before, or an unused recovery code (which is then spent). */
export async function acceptSecondFactor(src: SecretSource, user: StaffAuthRow, code: string): Promise<boolean> {
  const { db } = src;
  if (isTotpCode(code)) {
    if (!user.totp_secret) return false;
    const step = matchTotp(code, await openSecret(src, user.totp_secret));
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
