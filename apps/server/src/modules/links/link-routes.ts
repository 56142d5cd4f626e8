import { patientRoutes } from '@paylink/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { claimForLink, requirePatientClaim } from '../../http/guards.js';
import { auditContext } from '../../lib/audit.js';
import { checkContinue } from './check-continue.js';
import { createStepList } from './create-step-list.js';
import { getPatientInfo } from './get-patient-info.js';
import { lookupPhone } from './lookup-phone.js';
import { recordPaymentChoice } from './record-payment-choice.js';
import {
  API_KEY_SECURITY,
  PATIENT_SECURITY,
  allowEmptyJsonBodies,
  errorResponses,
  linkState401,
} from '../../http/route-support.js';
import { route } from '../../http/route.js';
import { jsonSchemaSuccess } from '../../http/json-schema-success.js';
import { updateStep } from './update-step.js';

/** The patient-facing calls of spec section 7 (the payment calls live in the payments module). */
export async function linkRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(async (scope) => {
    allowEmptyJsonBodies(scope);
    // Reads that check the session row inside their one statement (issue 17).
    const patientClaim = requirePatientClaim(ctx);
    const tags = ['patient'];

    route(
      scope,
      patientRoutes.phoneToVerify,
      {
        schema: {
          tags,
          summary: 'Phone number to verify (masked but for the last 4 digits)',
          description: 'text/plain, e.g. `(***) ***-4567`; empty for links without a phone number.',
          produces: ['text/plain', 'application/json'],
          security: API_KEY_SECURITY,
          response: { 400: errorResponses(400)[400], 401: linkState401 },
        },
      },
      async (request, reply) => {
        const masked = await lookupPhone({ db: ctx.db, actor: auditContext(request), linkId: request.params.linkId });
        return reply.type('text/plain; charset=utf-8').send(masked);
      },
    );

    route(
      scope,
      patientRoutes.patientInfo,
      {
        preHandler: patientClaim,
        // The patient reads run on every screen: their answers skip zod's per-answer encode (decision 0182).
        serializerCompiler: jsonSchemaSuccess(),
        schema: {
          tags,
          summary: 'Patient information and the payment chosen so far',
          security: PATIENT_SECURITY,
          response: { 401: linkState401, ...errorResponses(403) },
        },
      },
      async (request) => {
        const claim = await claimForLink(ctx, request, request.params.linkId);
        return getPatientInfo({ db: ctx.db, audits: app.auditBatch, actor: auditContext(request), claim });
      },
    );

    route(
      scope,
      patientRoutes.continueCheck,
      {
        preHandler: patientClaim,
        serializerCompiler: jsonSchemaSuccess(),
        schema: {
          tags,
          summary: 'Continue check: restore a returning patient',
          description: '200 restores the step list and where to continue; 404 when no step list exists yet.',
          security: PATIENT_SECURITY,
          response: { 401: linkState401, ...errorResponses(403, 404) },
        },
      },
      async (request) => {
        const claim = await claimForLink(ctx, request, request.params.linkId);
        return checkContinue({
          db: ctx.db,
          audits: app.auditBatch,
          actor: auditContext(request),
          claim,
          payments: ctx.linkPayments,
        });
      },
    );

    route(
      scope,
      patientRoutes.recordPaymentChoice,
      {
        // The session row is checked in the statement that locks the link (recordPaymentChoice).
        preHandler: patientClaim,
        schema: {
          tags,
          summary: 'Record the chosen payment (type, who pays, amount in whole dollars)',
          description:
            'Section 5 rules on the server: deposit 250-1000; payment or locked link 500-20000; a locked link forces ' +
            'type 2; missing type and source become 1. 409 once a later step is complete and the choice differs.',
          security: PATIENT_SECURITY,
          response: { 401: linkState401, ...errorResponses(400, 403, 409) },
        },
      },
      async (request) => {
        const { linkId, paymentTypeId, paymentSourceId, paymentAmount } = request.body;
        const claim = await claimForLink(ctx, request, linkId);
        return recordPaymentChoice({
          db: ctx.db,
          payments: ctx.linkPayments,
          actor: auditContext(request),
          claim,
          input: { paymentTypeId, paymentSourceId, paymentAmount },
        });
      },
    );

    route(
      scope,
      patientRoutes.createStepList,
      {
        // The session row is checked in the statement that locks the link (createStepList).
        preHandler: patientClaim,
        schema: {
          tags,
          summary: 'Create (or return) the ordered step list',
          description:
            'Idempotent. Rebuilt while nothing after /patientinfo is complete and the payment choice changed. ' +
            '/patientinfo is returned completed.',
          security: PATIENT_SECURITY,
          response: { 401: linkState401, ...errorResponses(400, 403, 409) },
        },
      },
      async (request) => {
        const q = request.query;
        const claim = await claimForLink(ctx, request, q.linkId);
        return createStepList({
          ctx,
          actor: auditContext(request),
          claim,
          paymentTypeId: q.paymentTypeId,
          paymentSourceId: q.paymentSourceId,
          paymentAmount: q.paymentAmount,
        });
      },
    );

    route(
      scope,
      patientRoutes.updateStep,
      {
        // The session row is checked in the step's read and again in its guarded write (moveStep, decision 0230).
        preHandler: patientClaim,
        schema: {
          tags,
          summary: 'Set a step in progress (2) or completed (4)',
          description:
            '409 `step_order` (earlier step open), `link_not_active`, `payment_step` (only an approved payment ' +
            'completes it), `document_not_signed`, `step_completed`; 403 for another link’s step.',
          security: PATIENT_SECURITY,
          response: errorResponses(400, 401, 403, 404, 409),
        },
      },
      async (request) => {
        const q = request.query;
        const claim = await claimForLink(ctx, request, q.linkId);
        return updateStep({
          ctx,
          actor: auditContext(request),
          claim,
          linkId: q.linkId,
          linkStepId: q.linkStepId,
          statusId: q.LinkStepStatusId,
        });
      },
    );
  });
}
