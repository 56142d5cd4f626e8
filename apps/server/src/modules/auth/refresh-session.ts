import type { AppContext } from '../../context.js';
import { requireUsableLink } from '../links/index.js';
import { issueSession, type PatientSession } from '../../http/session-tokens.js';
import { auditAuth, type AuditActor } from './auth-audit.js';

/**
 * A fresh token for a signed-in patient while the link is still usable; the old session is revoked in the same
 * transaction, so one sign-in never yields two live tokens.
 */
export async function refreshSession(
  ctx: AppContext,
  opts: { session: PatientSession; actor: AuditActor },
): Promise<PatientSession & { token: string }> {
  return ctx.db.transaction(async (tx) => {
    await requireUsableLink(tx, opts.session.linkId, { forUpdate: true, signIn: true });
    const old = await tx.query<{ method: 'sms' | 'email' | 'test' }>(
      `update patient_session set revoked_at = now() where id = $1 and revoked_at is null returning method`,
      [opts.session.sessionId],
    );
    const method = old.rows[0]?.method ?? 'test';
    const session = await issueSession({ db: tx, keys: ctx.sessionKeys, linkId: opts.session.linkId, method });
    await auditAuth(tx, opts.actor, 'auth.session.refreshed', opts.session.linkId, {
      from: opts.session.sessionId,
      to: session.sessionId,
    });
    return session;
  });
}
