import type { AppContext } from '../../context.js';
import { writeAudit, type Actor } from '../../lib/audit.js';
import { AppError } from '../../lib/errors.js';
import { storeOwnPassword } from './new-password.js';
import { hashResetToken } from './request-password-reset.js';

/**
 * A reset link's page sets a new password: the link must be unused, unexpired, the latest state of an active account.
 * The link is spent in the same transaction (a second use is refused), every session and CLI token of the user ends,
 * the user is e-mailed, and it is audited. Two-factor, when on, is still asked at the next sign-in.
 */
export async function completePasswordReset(
  ctx: AppContext,
  opts: { token: string; newPassword: string; actor: Actor },
): Promise<void> {
  const done = await ctx.db.transaction(async (tx) => {
    const r = await tx.query<{ id: string; staff_user_id: string; email: string }>(
      `update staff_password_reset r set used_at = now()
       from staff_user u
       where r.token_hash = $1 and r.used_at is null and r.expires_at > now() and u.id = r.staff_user_id
         and u.disabled_at is null
       returning r.id, r.staff_user_id, u.email`,
      [hashResetToken(opts.token)],
    );
    const row = r.rows[0];
    if (!row) return false;
    const ended = await storeOwnPassword(tx, {
      config: ctx.config,
      userId: row.staff_user_id,
      email: row.email,
      newPassword: opts.newPassword,
      via: 'reset_link',
    });
    await writeAudit(tx, {
      ...opts.actor,
      actorType: 'staff',
      actorId: row.staff_user_id,
      action: 'staff.password_reset_completed',
      details: { resetId: row.id, ...ended },
    });
    return true;
  });
  if (!done) {
    await writeAudit(ctx.db, { ...opts.actor, action: 'staff.password_reset_refused', details: { reason: 'link' } });
    throw new AppError(
      'reset_link_invalid',
      'This link was already used, has expired or is not valid. Ask for a new one on the sign-in page.',
    );
  }
}
