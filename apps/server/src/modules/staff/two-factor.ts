import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/client.js';
import { writeAudit } from '../../lib/audit.js';
import { AppError } from '../../lib/errors.js';
import type { Actor } from '../../lib/audit.js';
import { verifyPassword } from './passwords.js';
import { loadPracticeInfo } from '../../messages/index.js';
import { checkSecondFactor, twoFactorRequired, type StaffAuthRow } from './check-credentials.js';
import { reserveSignInAttempt, settleFailed, settleSucceeded } from './sign-in-throttle.js';
import { revokeEverything } from './staff-sessions.js';
import {
  hashRecoveryCode,
  matchTotp,
  newRecoveryCodes,
  newTotpSecret,
  openSecret,
  otpauthUri,
  sealSecret,
} from './totp.js';

const invalidCode = () =>
  new AppError('two_factor_code_wrong', 'The code is wrong. Enter the 6 digits the app shows now.');

async function loadUser(q: Queryable, userId: string): Promise<StaffAuthRow> {
  return (await q.query<StaffAuthRow>('select * from staff_user where id = $1', [userId])).rows[0]!;
}

export async function twoFactorStatus(ctx: AppContext, userId: string) {
  const r = await ctx.db.query<{ enabled: boolean; left: number }>(
    `select u.totp_enabled_at is not null as enabled,
       (select count(*)::int from staff_recovery_code c where c.staff_user_id = u.id and c.used_at is null) as left
     from staff_user u where u.id = $1`,
    [userId],
  );
  const row = r.rows[0]!;
  return { enabled: row.enabled, required: twoFactorRequired(ctx.config), recoveryCodesLeft: row.left };
}

/** A fresh secret kept as pending until a code from the app proves it was scanned. */
export async function startTwoFactorSetup(ctx: AppContext, opts: { userId: string; actor: Actor }) {
  const user = await loadUser(ctx.db, opts.userId);
  if (user.totp_enabled_at) throw new AppError('two_factor_enabled', 'Two-factor sign-in is already on.');
  const secret = newTotpSecret();
  await ctx.db.query('update staff_user set totp_pending_secret = $2 where id = $1', [
    user.id,
    await sealSecret(ctx, secret),
  ]);
  await writeAudit(ctx.db, { ...opts.actor, action: 'staff.2fa_setup_started' });
  const practice = await loadPracticeInfo(ctx.db, { name: ctx.config.PRACTICE_NAME });
  return { secret, otpauthUri: otpauthUri({ email: user.email, issuer: `Paylink (${practice.name})`, secret }) };
}

async function storeRecoveryCodes(q: Queryable, userId: string): Promise<string[]> {
  const codes = newRecoveryCodes();
  await q.query('delete from staff_recovery_code where staff_user_id = $1', [userId]);
  for (const c of codes) {
    await q.query('insert into staff_recovery_code (staff_user_id, code_hash) values ($1, $2)', [
      userId,
      hashRecoveryCode(c),
    ]);
  }
  return codes;
}

/**
 * Turns two-factor on. Every other console session and every API token of the user ends (issue 26): they were issued
 * on the password alone. The console session that turned it on goes on as a full session; a bearer token that turns
 * it on is ended too.
 */
export async function enableTwoFactor(
  ctx: AppContext,
  opts: { userId: string; code: string; actor: Actor; sessionId?: string; ip: string },
) {
  const user = await loadUser(ctx.db, opts.userId);
  if (user.totp_enabled_at) throw new AppError('two_factor_enabled', 'Two-factor sign-in is already on.');
  const pending = (user as StaffAuthRow & { totp_pending_secret: string | null }).totp_pending_secret;
  if (!pending) throw new AppError('two_factor_not_started', 'Start the set-up first.');
  const attempt = await reserveSignInAttempt(ctx.db, { email: user.email, ip: opts.ip });
  const step = matchTotp(opts.code, await openSecret(ctx, pending));
  if (step === null) {
    await settleFailed(ctx.db, attempt, 'enrol');
    throw invalidCode();
  }
  await settleSucceeded(ctx.db, attempt);
  return ctx.db.transaction(async (tx) => {
    const r = await tx.query(
      `update staff_user set totp_secret = totp_pending_secret, totp_pending_secret = null, totp_enabled_at = now(),
         totp_last_step = $2
       where id = $1 and totp_enabled_at is null and totp_pending_secret is not null`,
      [user.id, step],
    );
    if (r.rowCount !== 1) throw new AppError('two_factor_enabled', 'Two-factor sign-in is already on.');
    const recoveryCodes = await storeRecoveryCodes(tx, user.id);
    if (opts.sessionId) {
      await tx.query('update staff_session set enrolment_only = false where id = $1', [opts.sessionId]);
    }
    const ended = await revokeEverything(tx, user.id, { keepSessionId: opts.sessionId });
    await writeAudit(tx, { ...opts.actor, action: 'staff.2fa_enabled', details: ended });
    return { recoveryCodes };
  });
}

export async function regenerateRecoveryCodes(
  ctx: AppContext,
  opts: { userId: string; code: string; actor: Actor; ip: string },
) {
  const user = await loadUser(ctx.db, opts.userId);
  if (!user.totp_enabled_at) throw new AppError('two_factor_not_enabled', 'Two-factor sign-in is off.');
  // The same delay and cap as sign-in: a stolen session must not be a way to guess codes.
  const attempt = await reserveSignInAttempt(ctx.db, { email: user.email, ip: opts.ip });
  await checkSecondFactor({
    db: ctx.db,
    config: ctx.config,
    actor: opts.actor,
    user,
    code: opts.code.trim(),
    attempt,
    wrongCode: invalidCode,
  });
  await settleSucceeded(ctx.db, attempt);
  return ctx.db.transaction(async (tx) => {
    const recoveryCodes = await storeRecoveryCodes(tx, user.id);
    await writeAudit(tx, { ...opts.actor, action: 'staff.2fa_recovery_codes_replaced' });
    return { recoveryCodes };
  });
}

export async function disableTwoFactor(
  ctx: AppContext,
  opts: { userId: string; password: string; actor: Actor; ip: string },
) {
  if (twoFactorRequired(ctx.config)) {
    throw new AppError('two_factor_required', 'Two-factor sign-in is required in production and cannot be turned off.');
  }
  const user = await loadUser(ctx.db, opts.userId);
  const attempt = await reserveSignInAttempt(ctx.db, { email: user.email, ip: opts.ip });
  if (!(await verifyPassword(opts.password, user.password_hash))) {
    await settleFailed(ctx.db, attempt, 'password');
    throw new AppError('password_wrong', 'The password is wrong.');
  }
  await settleSucceeded(ctx.db, attempt);
  await ctx.db.transaction(async (tx) => {
    await clearTwoFactor(tx, user.id);
    await writeAudit(tx, { ...opts.actor, action: 'staff.2fa_disabled' });
  });
  return twoFactorStatus(ctx, user.id);
}

async function clearTwoFactor(q: Queryable, userId: string): Promise<void> {
  await q.query(
    `update staff_user set totp_secret = null, totp_pending_secret = null, totp_enabled_at = null, totp_last_step = null,
       totp_locked_at = null
     where id = $1`,
    [userId],
  );
  await q.query('delete from staff_recovery_code where staff_user_id = $1', [userId]);
}

/** An admin's reset (lost phone): two-factor off and every session and token of the user ended. */
export async function resetTwoFactor(q: Queryable, opts: { userId: string; actor: Actor }): Promise<void> {
  await clearTwoFactor(q, opts.userId);
  const ended = await revokeEverything(q, opts.userId);
  await writeAudit(q, { ...opts.actor, action: 'staff.2fa_reset', details: { staffUserId: opts.userId, ...ended } });
}
