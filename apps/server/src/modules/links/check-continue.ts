import type { ContinueCheck } from '@paylink/shared';
import type { Db } from '../../db/client.js';
import { writeAudit } from '../../lib/audit.js';
import { notFound } from '../../lib/errors.js';
import type { CardGateway } from '../../providers/gateway/types.js';
import { reconcileLink } from '../payments/reconcile-payment.js';
import { findLink, findPayment, listSteps, requireUsableLink } from './link-queries.js';
import type { Actor } from '../../lib/audit.js';
import { centsToDollars, currentRoutePath, toLinkStep, toPatientInfo } from './link-views.js';

/** A returning patient: 200 restores where they were, 404 when no step list exists yet (the client loads fresh info). */
export async function checkContinue(opts: {
  db: Db;
  actor: Actor;
  linkId: string;
  /** With the gateway, earlier payment attempts are reconciled first (a charged patient lands on the end state). */
  gateway?: CardGateway;
}): Promise<ContinueCheck> {
  if (opts.gateway) {
    const link = await findLink(opts.db, opts.linkId);
    if (link) await reconcileLink({ db: opts.db, gateway: opts.gateway, actor: opts.actor }, link.id);
  }
  return opts.db.transaction(async (tx) => {
    const link = await requireUsableLink(tx, opts.linkId);
    const steps = await listSteps(tx, link.id);
    const payment = await findPayment(tx, link.id);
    if (steps.length === 0 || !payment) throw notFound('No step list exists for this link yet.');
    await writeAudit(tx, { ...opts.actor, action: 'steps.continue_check', linkId: link.id });
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
  });
}
