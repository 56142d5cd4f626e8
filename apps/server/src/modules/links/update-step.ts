import type { UpdateStepResult } from '@paylink/shared';
import type { AppContext } from '../../context.js';
import type { SessionClaim } from '../../http/session-tokens.js';
import type { Actor } from '../../lib/audit.js';
import { moveStep } from './link-lifecycle.js';

/**
 * PUT /api/linksteps: a step becomes in progress (2) or completed (4); the rules are the lifecycle's (moveStep).
 * Two statements, no transaction (issue 30, decision 0230): one read (the link, its steps, the step's document and the
 * patient's session row) and one guarded write with its audit row. A revoked or expired session is refused 401 before
 * anything is written.
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
  return moveStep(ctx.db, { actor, linkId, linkStepId, statusId, documents: ctx.stepDocuments, session: claim });
}
