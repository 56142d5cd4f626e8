import {
  continueCheckSchema,
  createStepListQuerySchema,
  emptyBodySchema,
  linkStepListSchema,
  patientInfoSchema,
  paymentChoiceSchema,
  phoneLookupQuerySchema,
  recordPaymentChoiceBodySchema,
  updateStepQuerySchema,
  updateStepResultSchema,
} from '@paylink/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { assertLinkAccess, requirePatient } from '../../http/guards.js';
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
import { updateStep } from './update-step.js';

/** Path ids are checked by the lookup itself, so a malformed id gets the same 401 as an unknown one. */
const pathParams = z.object({ linkId: z.string().min(1).max(200) }).strict();

/** The patient-facing calls of spec section 7 (the payment calls live in the payments module). */
export async function linkRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(async (scope) => {
    allowEmptyJsonBodies(scope);
    const r = scope.withTypeProvider<ZodTypeProvider>();
    const patient = requirePatient(ctx);
    const tags = ['patient'];

    r.get(
      '/api/patients/:linkId/notoken',
      {
        schema: {
          tags,
          summary: 'Phone number to verify (masked but for the last 4 digits)',
          description: 'text/plain, e.g. `(***) ***-4567`; empty for links without a phone number.',
          produces: ['text/plain', 'application/json'],
          security: API_KEY_SECURITY,
          params: pathParams,
          querystring: phoneLookupQuerySchema,
          response: { 200: z.string(), 400: errorResponses(400)[400], 401: linkState401 },
        },
      },
      async (request, reply) => {
        const masked = await lookupPhone({ db: ctx.db, actor: auditContext(request), linkId: request.params.linkId });
        return reply.type('text/plain; charset=utf-8').send(masked);
      },
    );

    r.get(
      '/api/patients/patientinfo/:linkId',
      {
        preHandler: patient,
        schema: {
          tags,
          summary: 'Patient information and the payment chosen so far',
          security: PATIENT_SECURITY,
          params: pathParams,
          response: { 200: patientInfoSchema, 401: linkState401, ...errorResponses(403) },
        },
      },
      async (request) => {
        assertLinkAccess(request, request.params.linkId);
        return getPatientInfo({ db: ctx.db, actor: auditContext(request), linkId: request.params.linkId });
      },
    );

    r.get(
      '/api/linksteps/script/:linkId/check',
      {
        preHandler: patient,
        schema: {
          tags,
          summary: 'Continue check: restore a returning patient',
          description: '200 restores the step list and where to continue; 404 when no step list exists yet.',
          security: PATIENT_SECURITY,
          params: pathParams,
          response: { 200: continueCheckSchema, 401: linkState401, ...errorResponses(403, 404) },
        },
      },
      async (request) => {
        assertLinkAccess(request, request.params.linkId);
        return checkContinue({ db: ctx.db, actor: auditContext(request), linkId: request.params.linkId });
      },
    );

    r.post(
      '/api/linkpaymenthistory',
      {
        preHandler: patient,
        schema: {
          tags,
          summary: 'Record the chosen payment (type, who pays, amount in whole dollars)',
          description:
            'Section 5 rules on the server: deposit 250-1000; payment or locked link 500-20000; a locked link forces ' +
            'type 2; missing type and source become 1. 409 once a later step is complete and the choice differs.',
          security: PATIENT_SECURITY,
          body: recordPaymentChoiceBodySchema,
          response: { 200: paymentChoiceSchema, 401: linkState401, ...errorResponses(400, 403, 409) },
        },
      },
      async (request) => {
        const { linkId, paymentTypeId, paymentSourceId, paymentAmount } = request.body;
        assertLinkAccess(request, linkId);
        return recordPaymentChoice({
          db: ctx.db,
          actor: auditContext(request),
          linkId,
          input: { paymentTypeId, paymentSourceId, paymentAmount },
        });
      },
    );

    r.post(
      '/api/linksteps/script',
      {
        preHandler: patient,
        schema: {
          tags,
          summary: 'Create (or return) the ordered step list',
          description:
            'Idempotent. Rebuilt while nothing after /patientinfo is complete and the payment choice changed. ' +
            '/patientinfo is returned completed.',
          security: PATIENT_SECURITY,
          querystring: createStepListQuerySchema,
          body: emptyBodySchema,
          response: { 200: linkStepListSchema, 401: linkState401, ...errorResponses(400, 403, 409) },
        },
      },
      async (request) => {
        const q = request.query;
        assertLinkAccess(request, q.linkId);
        return createStepList({
          ctx,
          actor: auditContext(request),
          linkId: q.linkId,
          paymentTypeId: q.paymentTypeId,
          paymentSourceId: q.paymentSourceId,
          paymentAmount: q.paymentAmount,
        });
      },
    );

    r.put(
      '/api/linksteps',
      {
        preHandler: patient,
        schema: {
          tags,
          summary: 'Set a step in progress (2) or completed (4)',
          description:
            '409 `step_order` (earlier step open), `link_not_active`, `payment_step` (only an approved payment ' +
            'completes it), `document_not_signed`, `step_completed`; 403 for another link’s step.',
          security: PATIENT_SECURITY,
          querystring: updateStepQuerySchema,
          body: emptyBodySchema,
          response: { 200: updateStepResultSchema, ...errorResponses(400, 401, 403, 404, 409) },
        },
      },
      async (request) => {
        const q = request.query;
        assertLinkAccess(request, q.linkId);
        return updateStep({
          ctx,
          actor: auditContext(request),
          linkId: q.linkId,
          linkStepId: q.linkStepId,
          statusId: q.LinkStepStatusId,
        });
      },
    );
  });
}
