import type { AppContext } from '../../context.js';
import { requireUsableLink } from '../links/index.js';
import { issueSession, type PatientSession } from '../../http/session-tokens.js';
import { auditAuth, type AuditActor } from './auth-audit.js';
import { AuthError } from './auth-errors.js';
import { signInTokenHashes } from './auth-secret.js';
import { linkForSignIn } from './link-for-sign-in.js';

type Outcome = { kind: 'ok'; session: PatientSession & { token: string } } | { kind: 'invalid' } | { kind: 'expired' };

/**
 * The click on /auth after opening the e-mailed link (a POST: mail scanners that only GET the URL consume nothing).
 * A token works once, for its own link, within EMAIL_LINK_TTL_MINUTES.
 */
export async function verifyEmailLink(
  ctx: AppContext,
  opts: { linkId: string; oobCode: string; actor: AuditActor },
): Promise<PatientSession & { token: string }> {
  const action = 'auth.email.verify';
  const link = await linkForSignIn(ctx.db, { linkId: opts.linkId, method: 'email', actor: opts.actor, action });
  const tokenHashes = await signInTokenHashes(ctx, opts.oobCode);
  const outcome = await ctx.db.transaction<Outcome>(async (tx) => {
    await requireUsableLink(tx, link.id, { signIn: true });
    const r = await tx.query<{ id: string; link_id: string; consumed: boolean; expired: boolean }>(
      `select id, link_id, consumed_at is not null as consumed, expires_at <= now() as expired
       from email_signin_token where token_hash = any($1::text[]) for update`,
      [tokenHashes],
    );
    const t = r.rows[0];
    if (!t || t.link_id !== link.id || t.consumed) {
      const reason = !t ? 'unknown-token' : t.link_id !== link.id ? 'other-link' : 'used';
      await auditAuth(tx, opts.actor, 'auth.email.failed', link.id, { reason, tokenId: t?.id });
      return { kind: 'invalid' };
    }
    if (t.expired) {
      await auditAuth(tx, opts.actor, 'auth.email.failed', link.id, { reason: 'expired', tokenId: t.id });
      return { kind: 'expired' };
    }
    const session = await issueSession({
      db: tx,
      keys: ctx.sessionKeys,
      linkId: link.id,
      method: 'email',
      consume: { sql: 'update email_signin_token set consumed_at = now() where id = $1', params: [t.id] },
    });
    await auditAuth(tx, opts.actor, 'auth.email.verified', link.id, { tokenId: t.id, sessionId: session.sessionId });
    return { kind: 'ok', session };
  });
  if (outcome.kind === 'ok') return outcome.session;
  if (outcome.kind === 'expired') {
    throw new AuthError('auth/expired-action-code', 'This sign-in link has expired. Ask for a new one.');
  }
  throw new AuthError(
    'auth/invalid-action-code',
    'This sign-in link is not valid or was already used. Ask for a new one.',
  );
}
