import { LINK_ID_PATTERN, type UpdateStepResult } from '@paylink/shared';
import { sql } from 'kysely';
import type { AppContext } from '../../context.js';
import { typed } from '../../db/typed.js';
import { checkSessionRow, sessionEnded, type SessionClaim } from '../../http/session-tokens.js';
import type { Actor } from '../../lib/audit.js';
import { notFound } from '../../lib/errors.js';
import { moveStep } from './link-lifecycle.js';

/**
 * PUT /api/linksteps: a step becomes in progress (2) or completed (4); the rules are the lifecycle's (moveStep).
 * The patient's session row is checked in the statement that locks the link (issue 30: one statement, not two, on
 * the journey's most frequent call); a revoked or expired session is refused 401 before anything is read or written.
 */
export async function updateStep(opts: {
  ctx: AppContext;
  actor: Actor;
  claim: SessionClaim;
  linkId: string;
  linkStepId: number;
  statusId: 2 | 4;
}): Promise<UpdateStepResult> {
  const { ctx, actor, claim, linkId, linkStepId, statusId } = opts;
  return ctx.db.transaction(async (tx) => {
    const row = LINK_ID_PATTERN.test(linkId)
      ? await typed(tx)
          .selectFrom('link as l')
          .select(['l.id', 'l.status', 'l.expires_at'])
          // The same row check as LIVE_SESSION_WHERE (session-tokens.ts).
          .select(
            sql<boolean>`exists (select 1 from patient_session s where s.id = ${claim.sessionId}
              and s.link_id = ${claim.linkId} and s.revoked_at is null and s.expires_at > now())`.as('session_live'),
          )
          .where('l.id', '=', linkId)
          .forUpdate('l')
          .executeTakeFirst()
      : undefined;
    if (!row) {
      await checkSessionRow(tx, claim);
      throw notFound('No such link.');
    }
    if (!row.session_live) throw sessionEnded();
    return moveStep(tx, { actor, link: row, linkStepId, statusId, documents: ctx.stepDocuments });
  });
}
