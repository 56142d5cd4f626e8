import { z } from 'zod';
import {
  confirmPaymentBodySchema,
  confirmPaymentResultSchema,
  continueCheckSchema,
  convergeQuerySchema,
  createStepListQuerySchema,
  emptyBodySchema,
  linkPathParamsSchema,
  linkStepListSchema,
  patientInfoSchema,
  paymentChoiceSchema,
  paymentLogBodySchema,
  paymentStateSchema,
  phoneLookupQuerySchema,
  recordPaymentChoiceBodySchema,
  updateStepQuerySchema,
  updateStepResultSchema,
  vitalsBodySchema,
} from '../api.js';
import { appConfigSchema } from '../app-config.js';
import {
  cardUpdateBodySchema,
  cardUpdateResultSchema,
  cardUpdateSessionSchema,
  planAgreementBodySchema,
  planAgreementResultSchema,
} from '../plan-agreement.js';
import { patientPlanViewSchema } from '../patient-plan-view.js';
import {
  authOptionsQuerySchema,
  authOptionsSchema,
  emailSendBodySchema,
  emailSendResultSchema,
  emailVerifyBodySchema,
  sessionResultSchema,
  smsSendBodySchema,
  smsSendResultSchema,
  smsVerifyBodySchema,
} from '../auth.js';
import { defineRoute, type RouteSchemas } from './define-route.js';
import { patientEndpoints as e } from './patient-endpoints.js';

/** The patient app's routes: each endpoint of patient-endpoints.ts with its schemas. The server registers these. */
export const patientRoutes = {
  config: defineRoute({ ...e.config, response: appConfigSchema }),
  vitals: defineRoute({ ...e.vitals, body: vitalsBodySchema, status: 204 }),
  authOptions: defineRoute({ ...e.authOptions, query: authOptionsQuerySchema, response: authOptionsSchema }),
  smsSend: defineRoute({ ...e.smsSend, body: smsSendBodySchema, response: smsSendResultSchema }),
  smsVerify: defineRoute({ ...e.smsVerify, body: smsVerifyBodySchema, response: sessionResultSchema }),
  emailSend: defineRoute({ ...e.emailSend, body: emailSendBodySchema, response: emailSendResultSchema }),
  emailVerify: defineRoute({ ...e.emailVerify, body: emailVerifyBodySchema, response: sessionResultSchema }),
  sessionRefresh: defineRoute({ ...e.sessionRefresh, response: sessionResultSchema }),
  logout: defineRoute({ ...e.logout, status: 204 }),
  /** text/plain: the masked phone number. */
  phoneToVerify: defineRoute({
    ...e.phoneToVerify,
    params: linkPathParamsSchema,
    query: phoneLookupQuerySchema,
    response: z.string(),
  }),
  patientInfo: defineRoute({ ...e.patientInfo, params: linkPathParamsSchema, response: patientInfoSchema }),
  continueCheck: defineRoute({ ...e.continueCheck, params: linkPathParamsSchema, response: continueCheckSchema }),
  recordPaymentChoice: defineRoute({
    ...e.recordPaymentChoice,
    body: recordPaymentChoiceBodySchema,
    response: paymentChoiceSchema,
  }),
  createStepList: defineRoute({
    ...e.createStepList,
    query: createStepListQuerySchema,
    body: emptyBodySchema,
    response: linkStepListSchema,
  }),
  updateStep: defineRoute({
    ...e.updateStep,
    query: updateStepQuerySchema,
    body: emptyBodySchema,
    response: updateStepResultSchema,
  }),
  /** text/plain: the gateway session token. */
  paymentSession: defineRoute({ ...e.paymentSession, query: convergeQuerySchema, response: z.string() }),
  paymentState: defineRoute({ ...e.paymentState, response: paymentStateSchema }),
  confirmPayment: defineRoute({
    ...e.confirmPayment,
    body: confirmPaymentBodySchema,
    response: confirmPaymentResultSchema,
  }),
  logPaymentResponse: defineRoute({
    ...e.logPaymentResponse,
    params: linkPathParamsSchema,
    body: paymentLogBodySchema,
    response: z.object({ id: z.number() }),
    status: 201,
  }),
  plan: defineRoute({ ...e.plan, params: linkPathParamsSchema, response: patientPlanViewSchema }),
  acceptPlanAgreement: defineRoute({
    ...e.acceptPlanAgreement,
    params: linkPathParamsSchema,
    body: planAgreementBodySchema,
    response: planAgreementResultSchema,
    status: 201,
  }),
  cardUpdateSession: defineRoute({
    ...e.cardUpdateSession,
    params: linkPathParamsSchema,
    body: emptyBodySchema,
    response: cardUpdateSessionSchema,
    status: 201,
  }),
  updatePlanCard: defineRoute({
    ...e.updatePlanCard,
    params: linkPathParamsSchema,
    body: cardUpdateBodySchema,
    response: cardUpdateResultSchema,
  }),
} satisfies { [K in keyof typeof e]: (typeof e)[K] & RouteSchemas };

export type PatientRoute = (typeof patientRoutes)[keyof typeof patientRoutes];
