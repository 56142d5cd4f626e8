import { defineEndpoints } from './define-route.js';

/**
 * The patient app's calls (spec section 7): method and path only, no zod, so the web bundle can import them.
 * Their schemas are in patient-routes.ts under the same names.
 */
export const patientEndpoints = defineEndpoints({
  config: { method: 'GET', path: '/api/config' },
  vitals: { method: 'POST', path: '/api/vitals' },
  authOptions: { method: 'GET', path: '/api/auth/options' },
  smsSend: { method: 'POST', path: '/api/auth/sms/send' },
  smsVerify: { method: 'POST', path: '/api/auth/sms/verify' },
  emailSend: { method: 'POST', path: '/api/auth/email/send' },
  emailVerify: { method: 'POST', path: '/api/auth/email/verify' },
  sessionRefresh: { method: 'POST', path: '/api/auth/session/refresh' },
  logout: { method: 'POST', path: '/api/auth/logout' },
  phoneToVerify: { method: 'GET', path: '/api/patients/:linkId/notoken' },
  patientInfo: { method: 'GET', path: '/api/patients/patientinfo/:linkId' },
  continueCheck: { method: 'GET', path: '/api/linksteps/script/:linkId/check' },
  recordPaymentChoice: { method: 'POST', path: '/api/linkpaymenthistory' },
  createStepList: { method: 'POST', path: '/api/linksteps/script' },
  updateStep: { method: 'PUT', path: '/api/linksteps' },
  paymentSession: { method: 'POST', path: '/api/converge' },
  paymentState: { method: 'GET', path: '/api/converge/state' },
  confirmPayment: { method: 'PUT', path: '/api/linkpaymenthistory' },
  logPaymentResponse: { method: 'POST', path: '/api/linkpaymenthistory/:linkId/log' },
  /** Issue 28, not in the spec: a link's payment plan and its card-on-file agreement (decision 0207). */
  plan: { method: 'GET', path: '/api/plans/:linkId' },
  acceptPlanAgreement: { method: 'POST', path: '/api/plans/:linkId/agreement' },
  /** Issue 28: a new card for the plan, verified with 3-D Secure and stored without a charge (decision 0211). */
  cardUpdateSession: { method: 'POST', path: '/api/plans/:linkId/card/session' },
  updatePlanCard: { method: 'POST', path: '/api/plans/:linkId/card' },
});
