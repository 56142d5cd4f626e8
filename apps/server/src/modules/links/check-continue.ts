import type { ContinueCheck } from '@paylink/shared';
import type { Db } from '../../db/client.js';
import type { Actor } from '../../lib/audit.js';
import type { AuditBatch } from '../../lib/audit-batch.js';
import { notFound } from '../../lib/errors.js';
import type { LinkPayments } from '../../context.js';
import type { SessionClaim } from '../../http/session-tokens.js';
import { readPatientLink } from './read-patient-link.js';
import { centsToDollars, currentRoutePath, toLinkStep, toPatientInfo } from './link-views.js';

/**
 * A returning patient: 200 restores where they were, 404 when no step list exists yet (the client loads fresh info).
 * One read statement and the batched audit row in the common case; when an earlier payment attempt awaits
 * reconciliation it is reconciled first (a charged patient lands on the end state) and the link read again.
 */
export async function checkContinue(opts: {
  db: Db;
  audits: AuditBatch;
  actor: Actor;
  claim: SessionClaim;
  payments?: Pick<LinkPayments, 'reconcileLink'>;
}): Promise<ContinueCheck> {
  const read = {
    db: opts.db,
    audits: opts.audits,
    claim: opts.claim,
    actor: opts.actor,
    action: 'steps.continue_check',
    requireSteps: true,
  };
  let r = await readPatientLink({ ...read, checkReconcile: !!opts.payments });
  if (r.needsReconcile && opts.payments) {
    await opts.payments.reconcileLink({ linkId: opts.claim.linkId, actor: opts.actor });
    r = await readPatientLink(read);
  }
  const { link, steps, payment } = r;
  if (steps.length === 0 || !payment) throw notFound('No step list exists for this link yet.');
  const amount = centsToDollars(payment.amount_cents);
  return {
    linkStepScript: steps.map(toLinkStep),
    person: toPatientInfo(link, payment),
    payment: {
      paymentAmount: amount,
      paymentSourceId: payment.payment_source_id,
      paymentTypeId: payment.payment_type_id,
    },
    paymentAmount: amount,
    currentRoutePath: currentRoutePath(steps)!,
  };
}
