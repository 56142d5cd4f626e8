import type { Config } from '../../config.js';
import type { Queryable } from '../../db/client.js';
import { enqueueMessage, loadPracticeInfo } from '../../messages/index.js';
import { hashPassword } from './passwords.js';
import { passwordChangedEmail } from './password-emails.js';
import { revokeEverything } from './staff-sessions.js';

/**
 * The user's own new password (changed in the console or set through a reset link), in the caller's transaction: the
 * hash, no change required any more, every unused reset link spent, every session and CLI token ended except
 * `keepSessionId` (the console session that changed it), and an e-mail to the user.
 */
export async function storeOwnPassword(
  tx: Queryable,
  opts: {
    config: Config;
    userId: string;
    email: string;
    newPassword: string;
    via: 'console' | 'reset_link';
    keepSessionId?: string;
  },
): Promise<{ sessions: number; tokens: number }> {
  await tx.query(
    `update staff_user set password_hash = $2, password_change_required_at = null, password_changed_at = now()
     where id = $1`,
    [opts.userId, await hashPassword(opts.newPassword)],
  );
  await tx.query(
    'update staff_password_reset set used_at = now() where staff_user_id = $1 and used_at is null and token_hash is not null',
    [opts.userId],
  );
  const ended = await revokeEverything(tx, opts.userId, { keepSessionId: opts.keepSessionId });
  const practice = await loadPracticeInfo(tx, { name: opts.config.PRACTICE_NAME });
  const mail = passwordChangedEmail({
    practice,
    email: opts.email,
    via: opts.via,
    consoleUrl: `${opts.config.publicUrl}/console`,
  });
  await enqueueMessage(tx, { channel: 'email', to: opts.email, ...mail, kind: 'staff-password-changed' });
  return ended;
}
