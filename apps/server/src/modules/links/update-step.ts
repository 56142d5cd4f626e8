import {
  DocumentStepRoutes,
  LinkMessages,
  StepRoutes,
  StepStatus,
  type StepRoute,
  type UpdateStepResult,
} from '@paylink/shared';
import type { AppContext } from '../../context.js';
import { writeAudit } from '../../lib/audit.js';
import { conflict, forbidden, notFound } from '../../lib/errors.js';
import { isStepDocumentComplete } from '../signing/prepare-step-documents.js';
import { findLink, findStep, linkState, listSteps } from './link-queries.js';
import type { Actor } from '../../lib/audit.js';

const NOT_ACTIVE: Record<string, string> = {
  expired: LinkMessages.expired,
  cancelled: LinkMessages.cancelled,
  completed: LinkMessages.completed,
};

/**
 * PUT /api/linksteps: a step becomes in progress (2) or completed (4), in order. Refused with 409 on a link that is
 * not active, out of order, for the payment step (only an approved payment completes it), for an unsigned document,
 * and for reopening a completed step; 403 for another link's step.
 */
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
    const state = linkState(link);
    if (state !== 'active') throw conflict('link_not_active', NOT_ACTIVE[state]!);
    const step = await findStep(tx, linkStepId);
    if (!step) throw notFound('No such step.');
    if (step.link_id !== link.id) throw forbidden('This step belongs to another link.');

    const steps = await listSteps(tx, link.id);
    const index = steps.findIndex((s) => s.id === step.id);
    const result: UpdateStepResult = {
      linkStepId: step.id,
      linkStepStatusId: statusId,
      routePath: step.route_path,
      nextRoutePath: steps[index + 1]?.route_path ?? null,
    };
    if (statusId === StepStatus.Completed && step.route_path === StepRoutes.payment) {
      throw conflict('payment_step', 'The payment step is completed by an approved payment only.');
    }
    if (statusId === StepStatus.InProgress && step.status_id === StepStatus.Completed) {
      throw conflict('step_completed', 'This step is already complete.');
    }
    const open = steps.slice(0, index).find((s) => s.status_id !== StepStatus.Completed);
    if (open) throw conflict('step_order', `Complete the earlier step ${open.route_path} first.`);
    if (
      statusId === StepStatus.Completed &&
      step.status_id !== StepStatus.Completed &&
      DocumentStepRoutes.includes(step.route_path as StepRoute) &&
      !(await isStepDocumentComplete(tx, { linkId: link.id, linkStepId: step.id }))
    ) {
      throw conflict('document_not_signed', 'Sign the document before continuing.');
    }

    if (step.status_id !== statusId) {
      await tx.query(
        `update link_step set status_id = $2::smallint, updated_at = now(),
           completed_at = case when $3::boolean then now() else null end
         where id = $1`,
        [step.id, statusId, statusId === StepStatus.Completed],
      );
    }
    await writeAudit(tx, {
      ...actor,
      action: 'step.updated',
      linkId: link.id,
      details: { linkStepId: step.id, routePath: step.route_path, from: step.status_id, to: statusId },
    });
    return result;
  });
}
