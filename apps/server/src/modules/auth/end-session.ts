import type { AppContext } from '../../context.js';
import { verifySession } from '../../http/session-tokens.js';
import { auditAuth, type AuditActor } from './auth-audit.js';

/** Sign-out: revokes the session the token names, if it is still valid. An invalid or missing token is a no-op. */
export async function endSession(
  ctx: AppContext,
  opts: { token: string | undefined; actor: AuditActor },
): Promise<void> {
  if (!opts.token) return;
  const session = await verifySession({ db: ctx.db, keys: ctx.sessionKeys, token: opts.token }).catch(() => null);
  if (!session) return;
  await ctx.db.transaction(async (tx) => {
    await tx.query('update patient_session set revoked_at = now() where id = $1 and revoked_at is null', [
      session.sessionId,
    ]);
    await auditAuth(
      tx,
      { ...opts.actor, actorType: 'link', actorId: session.sessionId },
      'auth.logout',
      session.linkId,
    );
  });
}
