import { effectivePaymentType, stepRoutesFor, type LinkStep, type PaymentSourceId } from '@paylink/shared';
import type { AppContext } from '../../context.js';
import { batchAudits, writeAudit } from '../../lib/audit.js';
import type { Queryable } from '../../db/client.js';
import { AppError, badRequest } from '../../lib/errors.js';
import { findPayment, listSteps, lockLinkForSession } from './link-queries.js';
import type { SessionClaim } from '../../http/session-tokens.js';
import type { Actor } from '../../lib/audit.js';
import { writeStepList } from './link-lifecycle.js';
import { toLinkStep } from './link-views.js';
import { applyPaymentChoice, isStepListFrozen } from './record-payment-choice.js';

/**
 * POST /api/linksteps/script: the ordered step list for the link's payment choice. Submitting patient information
 * is what creates it, so /patientinfo is stored completed (docs/decisions/0003). Calling it again returns the same
 * list, or rebuilds it while nothing after patient information is complete and the choice changed since it was
 * built (the patient changed who pays). When the query carries an amount, the choice is recorded first with the same
 * rules as POST /api/linkpaymenthistory.
 */
export async function createStepList(opts: {
  ctx: AppContext;
  actor: Actor;
  /** The patient's claim on the link (its session row is checked in the link's locking read). */
  claim: SessionClaim;
  paymentTypeId?: number;
  paymentSourceId?: number;
  paymentAmount?: number;
}): Promise<LinkStep[]> {
  // The rows it writes (the choice, the step list) go in one audit statement at the end (issue 30).
  return opts.ctx.db.transaction((tx) => batchAudits(tx, () => buildStepList(tx, opts)));
}

async function buildStepList(tx: Queryable, opts: Parameters<typeof createStepList>[0]): Promise<LinkStep[]> {
  const { ctx, actor } = opts;
  const link = await lockLinkForSession(tx, opts.claim);
  const existing = await listSteps(tx, link.id);
  if (existing.length > 0 && (await isStepListFrozen(tx, link.id))) {
    await writeAudit(tx, { ...actor, action: 'steps.read', linkId: link.id });
    return existing.map(toLinkStep);
  }

  let payment = await findPayment(tx, link.id);
  if (opts.paymentAmount !== undefined) {
    const input = {
      paymentTypeId: opts.paymentTypeId,
      paymentSourceId: opts.paymentSourceId,
      paymentAmount: opts.paymentAmount,
    };
    const choice = await applyPaymentChoice(tx, {
      link,
      actor,
      input,
      payments: opts.ctx.linkPayments,
      existing: payment,
    });
    payment = choice.payment;
  } else if (!payment) {
    throw new AppError('payment_not_chosen', 'Choose the payment amount before continuing.');
  } else if (
    (opts.paymentSourceId !== undefined && opts.paymentSourceId !== payment.payment_source_id) ||
    (opts.paymentTypeId !== undefined &&
      effectivePaymentType({ locked: link.is_payment_link_locked, paymentTypeId: opts.paymentTypeId }) !==
        payment.payment_type_id)
  ) {
    throw badRequest('paymentAmount is required to change the payment choice.', {
      paymentAmount: 'paymentAmount is required to change the payment choice',
    });
  }

  const routes = stepRoutesFor(payment.payment_source_id as PaymentSourceId);
  if (existing.length > 0) {
    const sameRoutes = existing.map((s) => s.route_path).join(' ') === routes.join(' ');
    const current = await tx.query<{ current: boolean }>(
      `select bool_and(s.created_at >= p.updated_at) as current
         from link_step s join payment p on p.link_id = s.link_id where s.link_id = $1`,
      [link.id],
    );
    if (sameRoutes && current.rows[0]?.current) {
      await writeAudit(tx, { ...actor, action: 'steps.read', linkId: link.id });
      return existing.map(toLinkStep);
    }
  }

  // The list as written (the insert's rows with their documents' URLs): not read again (issue 30).
  const steps = await writeStepList(tx, {
    actor,
    link,
    routes,
    replacing: existing,
    documents: ctx.stepDocuments,
    details: { paymentSourceId: payment.payment_source_id },
  });
  return steps.map(toLinkStep);
}
