import type { AppContext } from '../../context.js';
import { writeAudit, type Actor } from '../../lib/audit.js';
import { AppError } from '../../lib/errors.js';
import { checkSecondFactor, findStaffAuthUser } from './check-credentials.js';
import { verifyPassword } from './passwords.js';
import { storeOwnPassword } from './new-password.js';
import { reserveSignInAttempt, settleFailed, settleSucceeded } from './sign-in-throttle.js';

const wrongCode = () =>
  new AppError('two_factor_code_wrong', 'The code is wrong. Enter the 6 digits the app shows now, or a recovery code.');

/**
 * A signed-in staff user changes their own password: the current one, a new one and, when two-factor is on, a code.
 * The current password and the code are checked like a sign-in (the same delay and code cap: a stolen session must
 * not be a way to guess them). The user's other sessions and every CLI token end; the user is e-mailed; audited.
 */
export async function changeStaffPassword(
  ctx: AppContext,
  opts: {
    userId: string;
    currentPassword: string;
    newPassword: string;
    code?: string;
    actor: Actor;
    sessionId?: string;
    ip: string;
  },
): Promise<void> {
  const user = await findStaffAuthUser(ctx.db, opts.userId);
  const attempt = await reserveSignInAttempt(ctx.db, { email: user.email, ip: opts.ip });
  if (!(await verifyPassword(opts.currentPassword, user.password_hash))) {
    await settleFailed(ctx.db, attempt, 'password');
    await writeAudit(ctx.db, {
      ...opts.actor,
      action: 'staff.password_change_failed',
      details: { reason: 'password' },
    });
    throw new AppError('password_wrong', 'The current password is wrong.');
  }
  if (user.totp_enabled_at && user.totp_secret) {
    const code = opts.code?.trim();
    if (!code) {
      await settleSucceeded(ctx.db, attempt);
      throw new AppError(
        'two_factor_code_wrong',
        'Two-factor sign-in is on: enter the code from the authenticator app.',
      );
    }
    await checkSecondFactor({ db: ctx.db, config: ctx.config, actor: opts.actor, user, code, attempt, wrongCode });
  }
  await settleSucceeded(ctx.db, attempt);
  if (await verifyPassword(opts.newPassword, user.password_hash)) {
    throw new AppError('password_reused', 'Choose a new password, different from the current one.');
  }
  await ctx.db.transaction(async (tx) => {
    const ended = await storeOwnPassword(tx, {
      config: ctx.config,
      userId: user.id,
      email: user.email,
      newPassword: opts.newPassword,
      via: 'console',
      keepSessionId: opts.sessionId,
    });
    await writeAudit(tx, {
      ...opts.actor,
      action: 'staff.password_changed',
      details: { ...ended, afterReset: Boolean(user.password_change_required_at) },
    });
  });
}
