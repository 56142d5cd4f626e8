import { PaymentSource, StepRoutes } from '@paylink/shared';
import { sql, type RawBuilder } from 'kysely';
import type { AppContext, StepDocuments } from '../../context.js';
import type { Queryable } from '../../db/client.js';
import { setStepDocumentUrls } from '../links/index.js';
import { newSubmissionToken } from './builtin-provider.js';
import { snapshotContracts } from './contracts.js';
import {
  deleteSubmissions,
  findStepRoute,
  insertSubmissionsChange,
  paymentSourceOf,
  stepsForDocuments,
  submissionForStep,
} from './submission-queries.js';
import type { SubmissionKind } from './types.js';

/** Which document each step route asks for. The payment step has one only when the payor pays. */
const KIND_BY_ROUTE: Readonly<Record<string, SubmissionKind>> = {
  [StepRoutes.invoice]: 'invoice',
  [StepRoutes.patientId]: 'patient_id',
  [StepRoutes.payorId]: 'payor_id',
  [StepRoutes.contract]: 'contract',
  [StepRoutes.payment]: 'payment_authorization',
};

type PrepareContext = {
  config: Pick<AppContext['config'], 'signOrigin' | 'CONTRACT_PDF_PATH' | 'CONTRACT_PDF_PATH_ES'>;
  providers: Pick<AppContext['providers'], 'storage'>;
};

/**
 * Creates the missing submissions for a link's document steps and writes each step's document_url. Idempotent: a
 * step that already has a submission keeps it (and its URL). Runs in the caller's transaction (the lifecycle's
 * writeStepList). One read, then the new submissions and every URL in one statement (issue 30: an insert and an
 * update per document, and a read of the contract uploads, before). Gives back the URLs it wrote, by step id.
 */
export async function prepareStepDocuments(
  tx: Queryable,
  ctx: PrepareContext,
  { linkId }: { linkId: string },
): Promise<ReadonlyMap<number, string | null>> {
  const { steps, paymentSourceId, contracts } = await stepsForDocuments(tx, linkId);
  const payorPays = paymentSourceId === PaymentSource.Payor;
  const urls = new Map<number, string | null>();
  const unsigned: string[] = [];
  const created: Parameters<typeof insertSubmissionsChange>[1][number][] = [];
  for (const step of steps) {
    const kind = KIND_BY_ROUTE[step.route_path];
    if (!kind) continue;
    const existing = step.submission;
    if (kind === 'payment_authorization' && !payorPays) {
      // The patient pays: no authorisation to sign. An unsigned one left from an earlier choice goes away.
      if (existing?.status === 'pending') unsigned.push(existing.id);
      if (existing?.status !== 'completed' && step.document_url !== null) urls.set(step.id, null);
      continue;
    }
    if (existing && step.document_url) continue;
    if (existing?.status === 'pending') unsigned.push(existing.id);
    else if (existing) continue;
    // The contract this link's readers get is fixed now: a later console upload does not change it (decision 0168).
    const contractSnapshot =
      kind === 'contract' ? await snapshotContracts(contracts, ctx.config, ctx.providers.storage) : undefined;
    const { tokenHash, documentUrl } = newSubmissionToken(ctx.config.signOrigin);
    created.push({ tokenHash, linkId, linkStepId: step.id, kind, contractSnapshot });
    urls.set(step.id, documentUrl);
  }
  // Before the insert, in a statement of its own: a step's new submission reuses its unique link_step_id.
  await deleteSubmissions(tx, unsigned);
  await setStepDocumentUrls(tx, urls, created.length > 0 ? insertSubmissionsChange(tx, created) : undefined);
  return urls;
}

/**
 * Whether the document of a step is done, from the server's own record. Steps without a document are complete; a
 * document step with no completed submission of this link is not.
 */
export async function isStepDocumentComplete(
  tx: Queryable,
  { linkId, linkStepId, routePath: known }: { linkId: string; linkStepId: number; routePath?: string },
): Promise<boolean> {
  // A caller that read the step from this link's steps in its transaction passes its route; else it is read here.
  const routePath = known ?? (await findStepRoute(tx, linkStepId, linkId));
  if (routePath === null) return false;
  const kind = KIND_BY_ROUTE[routePath];
  if (!kind) return true;
  const submission = await submissionForStep(tx, linkStepId);
  if (kind === 'payment_authorization' && !submission) {
    return (await paymentSourceOf(tx, linkId)) !== PaymentSource.Payor;
  }
  return submission?.link_id === linkId && submission.status === 'completed';
}

/** This module's answers to the link lifecycle (wired into AppContext.stepDocuments by the composition root). */
export function signingStepDocuments(ctx: PrepareContext): StepDocuments {
  return {
    prepare: (tx, o) => prepareStepDocuments(tx, ctx, o),
    isComplete: isStepDocumentComplete,
    completeSql: stepDocumentCompleteSql,
  };
}

/**
 * isStepDocumentComplete as one SQL expression (issue 30: moveStep reads it in the statement that reads the link and
 * its steps). The same answers: a step of another link (or none) is not complete; a step without a document is; the
 * payment step without a submission is while the payor does not pay; else its submission of this link is completed.
 */
export function stepDocumentCompleteSql({
  linkId,
  linkStepId,
}: {
  linkId: string;
  linkStepId: number;
}): RawBuilder<boolean> {
  return sql<boolean>`coalesce((select case
      when st.route_path <> all(${Object.keys(KIND_BY_ROUTE)}::text[]) then true
      when st.route_path = ${StepRoutes.payment} and sub.id is null
        then coalesce((select p.payment_source_id from payment p where p.link_id = st.link_id), 0) <> ${PaymentSource.Payor}
      else sub.link_id = st.link_id and sub.status = 'completed'
    end
    from link_step st left join submission sub on sub.link_step_id = st.id
    where st.id = ${linkStepId} and st.link_id = ${linkId}), false)`;
}
