import type { UpdateStepResult } from '@paylink/shared';
import type { AppContext } from '../../context.js';
import type { Actor } from '../../lib/audit.js';
import { notFound } from '../../lib/errors.js';
import { moveStep } from './link-lifecycle.js';
import { findLink } from './link-queries.js';

/** PUT /api/linksteps: a step becomes in progress (2) or completed (4); the rules are the lifecycle's (moveStep). */
export async function updateStep(opts: {
  ctx: AppContext;
  actor: Actor;
  linkId: string;
  linkStepId: number;
  statusId: 2 | 4;
}): Promise<UpdateStepResult> {
  const { ctx, actor, linkId, linkStepId, statusId } = opts;
  return ctx.db.transaction(async (tx) => {
    const link = await findLink(tx, linkId, { forUpdate: true });
    if (!link) throw notFound('No such link.');
    return moveStep(tx, { actor, link, linkStepId, statusId, documents: ctx.stepDocuments });
  });
}
