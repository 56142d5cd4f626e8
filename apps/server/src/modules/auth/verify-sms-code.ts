import type { AppContext } from '../../context.js';
import { LinkStateError } from '../../lib/errors.js';
import type { LinkRow } from '../links/index.js';
import { issueSession, type PatientSession } from '../../http/session-tokens.js';
import { auditAuth, type AuditActor } from './auth-audit.js';
import { AuthError, tooManyRequests } from './auth-errors.js';
import { otpHashes, sameHash } from './auth-secret.js';
import { linkForSignIn } from './link-for-sign-in.js';

type Outcome =
  | { kind: 'ok'; session: PatientSession & { token: string } }
  | { kind: 'expired' }
  | { kind: 'locked' }
  | { kind: 'wrong'; left: number };

/**
 * Checks a code against the link's current challenge. A right code is consumed and opens a session for that link
 * only; each wrong one counts, and the 5th (OTP_MAX_ATTEMPTS) kills the code. Counting commits even though the
 * request is refused.
 */
export async function verifySmsCode(
  ctx: AppContext,
  opts: { linkId: string; code: string; actor: AuditActor },
): Promise<PatientSession & { token: string }> {
  const action = 'auth.sms.verify';
  // Hash before the transaction: the key lookup must not run on another connection while it is open (PGlite).
  const codeHashes = await otpHashes(ctx, opts.linkId, opts.code);
  let refused: LinkStateError | undefined;
  const outcome = await ctx.db.transaction<Outcome | { kind: 'refused' }>(async (tx) => {
    // The link read once, in the transaction that opens the session (issue 30): usable, signing in by SMS. A refusal
    // commits its audit row and is thrown after the commit.
    let link: LinkRow;
    try {
      link = await linkForSignIn(tx, { linkId: opts.linkId, method: 'sms', actor: opts.actor, action });
    } catch (err) {
      if (!(err instanceof LinkStateError)) throw err;
      refused = err;
      return { kind: 'refused' };
    }
    const r = await tx.query<{
      id: string;
      code_hash: string;
      attempts: number;
      max_attempts: number;
      consumed: boolean;
      expired: boolean;
    }>(
      `select id, code_hash, attempts, max_attempts, consumed_at is not null as consumed, expires_at <= now() as expired
       from otp_challenge where link_id = $1 and superseded_at is null
       order by created_at desc limit 1 for update`,
      [link.id],
    );
    const ch = r.rows[0];
    if (!ch || ch.consumed || ch.expired) {
      await auditAuth(tx, opts.actor, 'auth.sms.failed', link.id, {
        reason: !ch ? 'no-code' : ch.consumed ? 'used' : 'expired',
        challengeId: ch?.id,
      });
      return { kind: 'expired' };
    }
    if (ch.attempts >= ch.max_attempts) {
      await auditAuth(tx, opts.actor, 'auth.sms.failed', link.id, { reason: 'locked', challengeId: ch.id });
      return { kind: 'locked' };
    }
    if (!codeHashes.some((h) => sameHash(ch.code_hash, h))) {
      const attempts = ch.attempts + 1;
      await tx.query('update otp_challenge set attempts = $2 where id = $1', [ch.id, attempts]);
      const locked = attempts >= ch.max_attempts;
      await auditAuth(tx, opts.actor, locked ? 'auth.sms.locked' : 'auth.sms.failed', link.id, {
        reason: 'wrong-code',
        attempts,
        challengeId: ch.id,
      });
      return locked ? { kind: 'locked' } : { kind: 'wrong', left: ch.max_attempts - attempts };
    }
    const session = await issueSession({
      db: tx,
      keys: ctx.sessionKeys,
      linkId: link.id,
      method: 'sms',
      consume: { sql: 'update otp_challenge set consumed_at = now() where id = $1', params: [ch.id] },
    });
    await auditAuth(tx, opts.actor, 'auth.sms.verified', link.id, { challengeId: ch.id, sessionId: session.sessionId });
    return { kind: 'ok', session };
  });

  switch (outcome.kind) {
    case 'refused':
      throw refused!;
    case 'ok':
      return outcome.session;
    case 'expired':
      throw new AuthError('auth/code-expired', 'This code has expired or was already used. Request a new code.');
    case 'locked':
      throw tooManyRequests('Too many wrong codes. Request a new code.');
    case 'wrong':
      throw new AuthError(
        'auth/invalid-verification-code',
        `The code is not correct. ${outcome.left} ${outcome.left === 1 ? 'try' : 'tries'} left.`,
      );
  }
}
