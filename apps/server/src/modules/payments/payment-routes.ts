import { patientRoutes } from '@paylink/shared';
import { practiceTimeZone } from '../app-config/index.js';
import { practiceFromConfig } from './receipt-routes.js';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { assertLinkAccess, claimForLink, requirePatient, requirePatientClaim } from '../../http/guards.js';
import { auditContext } from '../../lib/audit.js';
import { unauthorized } from '../../lib/errors.js';
import { PATIENT_SECURITY, errorResponses, linkState401 } from '../../http/route-support.js';
import { route } from '../../http/route.js';
import { confirmPayment } from './confirm-payment.js';
import { createPaymentSession } from './create-payment-session.js';
import { logPaymentResponse } from './log-payment-response.js';
import { readPaymentState } from './read-payment-state.js';

/** The card-payment calls of spec section 7 (the payment choice, POST /api/linkpaymenthistory, is in links). */
export async function paymentRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const patient = requirePatient(ctx);
  const patientClaim = requirePatientClaim(ctx);
  const tags = ['payment'];

  route(
    app,
    patientRoutes.paymentSession,
    {
      preHandler: patientClaim,
      schema: {
        tags,
        summary: 'A card-gateway session token for the amount recorded for the signed-in link',
        description:
          'text/plain token for Checkout.js (ssl_txn_auth_token). 409 when the amount differs from the recorded one; ' +
          '409 `payment_in_progress` while another browser (another session) holds the live token, `payment_checking` ' +
          "while an earlier attempt's outcome is unknown; 409 `agreement_required` for a payment plan's deposit before " +
          "the card-on-file agreement is accepted (the deposit then stores the card); 401 'Process has completed.' " +
          'after the payment.',
        security: PATIENT_SECURITY,
        response: { 401: linkState401, ...errorResponses(400, 409, 429, 502) },
      },
    },
    async (request, reply) => {
      // The session row is checked in the call's first read (issue 30), not by a guard's statement of its own.
      const claim = request.patientClaim;
      if (!claim) throw unauthorized('Sign in to continue.');
      const token = await createPaymentSession({
        db: ctx.db,
        gateway: ctx.providers.gateway,
        actor: auditContext(request),
        linkId: claim.linkId,
        claim,
        amount: request.query.amount,
        maxAttemptsPerHour: ctx.config.PAYMENT_MAX_ATTEMPTS_PER_HOUR,
        plans: ctx.linkPlans,
      });
      return reply.header('cache-control', 'no-store').type('text/plain; charset=utf-8').send(token);
    },
  );

  route(
    app,
    patientRoutes.paymentState,
    {
      preHandler: patient,
      schema: {
        tags,
        summary: 'Whether a card payment of the signed-in link is under way (another browser paying)',
        description:
          'After 409 `payment_in_progress`: `inProgress` stays true while another browser pays; false once that ' +
          "payment ended without being recorded; 401 'Process has completed.' once it was recorded.",
        security: PATIENT_SECURITY,
        response: { 401: linkState401 },
      },
    },
    async (request, reply) => {
      const session = request.patient;
      if (!session) throw unauthorized('Sign in to continue.');
      const state = await readPaymentState({ db: ctx.db, linkId: session.linkId });
      return reply.header('cache-control', 'no-store').send(state);
    },
  );

  route(
    app,
    patientRoutes.confirmPayment,
    {
      preHandler: patientClaim,
      schema: {
        tags,
        summary: 'Record an approved card payment (verified with the gateway) and complete the link',
        security: PATIENT_SECURITY,
        response: { 401: linkState401, ...errorResponses(400, 403, 409, 502) },
      },
    },
    async (request) => {
      // The session row is checked in the call's first read (issue 30), not by a guard's statement of its own.
      const claim = await claimForLink(ctx, request, request.body.linkId);
      return confirmPayment({
        db: ctx.db,
        gateway: ctx.providers.gateway,
        actor: auditContext(request),
        claim,
        input: request.body,
        practiceFallback: practiceFromConfig(ctx),
        timeZone: await practiceTimeZone(ctx.db, ctx.config),
        publicUrl: ctx.config.publicUrl,
        plans: ctx.linkPlans,
      });
    },
  );

  route(
    app,
    patientRoutes.logPaymentResponse,
    {
      preHandler: patient,
      schema: {
        tags,
        summary: 'Log a decline or gateway error (stored redacted: last 4 digits at most, never a CVC)',
        security: PATIENT_SECURITY,
        response: { 401: linkState401, ...errorResponses(400, 403) },
      },
    },
    async (request, reply) => {
      assertLinkAccess(request, request.params.linkId);
      const logged = await logPaymentResponse({
        db: ctx.db,
        actor: auditContext(request),
        linkId: request.params.linkId,
        sessionId: request.patient!.sessionId,
        linkStepId: request.body.linkStepId,
        payload: request.body.payload,
      });
      return reply.status(201).send(logged);
    },
  );
}
