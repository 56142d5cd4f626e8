import { z } from 'zod';
import {
  adminLinkParamsSchema,
  createLinkBodySchema,
  createLinkResultSchema,
  createStaffBodySchema,
  linkDetailSchema,
  linkSummarySchema,
  listLinksQuerySchema,
  listLinksResultSchema,
  listPaymentsQuerySchema,
  listPaymentsResultSchema,
  loginBodySchema,
  loginResultSchema,
  staffUserSchema,
} from '../admin.js';
import { emptyBodySchema } from '../api.js';
import {
  complianceListQuerySchema,
  complianceScriptsResultSchema,
  cspReportsResultSchema,
  tamperCheckResultSchema,
  tamperChecksResultSchema,
} from '../compliance.js';
import {
  boardChangesQuerySchema,
  boardChangesResultSchema,
  boardQuerySchema,
  boardResultSchema,
  consoleLinkDetailSchema,
  consoleLinkParamsSchema,
  consoleSessionSchema,
  coordinatorListSchema,
  extendLinkWithReasonBodySchema,
  funnelQuerySchema,
  funnelResultSchema,
  linkActionBodySchema,
  paymentReportQuerySchema,
  paymentReportSchema,
  practiceSettingsResultSchema,
  recoveryCodesSchema,
  signInBodySchema,
  signInResultSchema,
  staffListItemSchema,
  staffListSchema,
  staffParamsSchema,
  twoFactorCodeBodySchema,
  twoFactorDisableBodySchema,
  twoFactorSetupSchema,
  twoFactorStatusSchema,
  updatePracticeSettingsBodySchema,
  updateStaffBodySchema,
  linkDocumentListSchema,
  contractLangParamsSchema,
  contractPdfQuerySchema,
  contractUploadQuerySchema,
  contractsResultSchema,
  contractUploadResultSchema,
} from '../console/index.js';
import {
  linkMessagesResultSchema,
  linkRemindersBodySchema,
  notificationPrefsSchema,
  optOutListSchema,
  reminderPlanResultSchema,
  reminderPlanSchema,
  sendLinkBodySchema,
  sentMessageSchema,
} from '../messaging.js';
import {
  createWebhookBodySchema,
  flaggedApprovalParamsSchema,
  listFlaggedApprovalsResultSchema,
  listRefundsResultSchema,
  listWebhookDeliveriesResultSchema,
  listWebhooksResultSchema,
  refundBodySchema,
  refundResultSchema,
  resendReceiptResultSchema,
  refundOptionsSchema,
  voidFlaggedApprovalBodySchema,
  voidFlaggedApprovalResultSchema,
  webhookDeliverySchema,
  webhookEndpointSchema,
  webhookEndpointWithSecretSchema,
} from '../money.js';
import { runPlansBodySchema, runPlansResultSchema } from '../plan-scheduler.js';
import { upcomingChargesQuerySchema, upcomingChargesResultSchema } from '../plans.js';
import {
  chargeInstallmentResultSchema,
  planActionBodySchema,
  planActionResultSchema,
  planInstallmentParamsSchema,
  rescheduleInstallmentBodySchema,
} from '../plan-actions.js';
import { planTemplatesBodySchema, planTemplatesResultSchema } from '../plan-templates.js';
import { defineRoute, type RouteSchemas } from './define-route.js';
import { consoleEndpoints as e } from './console-endpoints.js';

/** A webhook endpoint or delivery id. */
export const webhookIdParamsSchema = z.object({ id: z.uuid('id must be a webhook id') }).strict();
export const webhookDeliveriesQuerySchema = z
  .object({ limit: z.coerce.number().int().min(1).max(500).optional().default(100) })
  .strict();
export const linkDocumentsParamsSchema = z.object({ id: z.string().max(64) });
export const documentPdfParamsSchema = z.object({ submissionId: z.string().max(64) });
export const evidencePackQuerySchema = z.object({ lang: z.enum(['en', 'es']).optional() }).strict();

/** The console's and the staff API's routes: each endpoint of console-endpoints.ts with its schemas. */
export const consoleRoutes = {
  signIn: defineRoute({ ...e.signIn, body: signInBodySchema, response: signInResultSchema }),
  session: defineRoute({ ...e.session, response: consoleSessionSchema }),
  signOut: defineRoute({ ...e.signOut, response: z.null(), status: 204 }),
  signOutEverywhere: defineRoute({ ...e.signOutEverywhere, response: z.null(), status: 204 }),
  twoFactorStatus: defineRoute({ ...e.twoFactorStatus, response: twoFactorStatusSchema }),
  twoFactorSetup: defineRoute({ ...e.twoFactorSetup, body: emptyBodySchema, response: twoFactorSetupSchema }),
  twoFactorEnable: defineRoute({ ...e.twoFactorEnable, body: twoFactorCodeBodySchema, response: recoveryCodesSchema }),
  recoveryCodes: defineRoute({ ...e.recoveryCodes, body: twoFactorCodeBodySchema, response: recoveryCodesSchema }),
  twoFactorDisable: defineRoute({
    ...e.twoFactorDisable,
    body: twoFactorDisableBodySchema,
    response: twoFactorStatusSchema,
  }),
  board: defineRoute({ ...e.board, query: boardQuerySchema, response: boardResultSchema }),
  boardChanges: defineRoute({ ...e.boardChanges, query: boardChangesQuerySchema, response: boardChangesResultSchema }),
  linkDetail: defineRoute({ ...e.linkDetail, params: consoleLinkParamsSchema, response: consoleLinkDetailSchema }),
  paymentReport: defineRoute({ ...e.paymentReport, query: paymentReportQuerySchema, response: paymentReportSchema }),
  paymentExport: defineRoute({
    ...e.paymentExport,
    query: paymentReportQuerySchema,
    response: z.string().describe('text/csv'),
  }),
  funnel: defineRoute({ ...e.funnel, query: funnelQuerySchema, response: funnelResultSchema }),
  coordinators: defineRoute({ ...e.coordinators, response: coordinatorListSchema }),
  updateStaff: defineRoute({
    ...e.updateStaff,
    params: staffParamsSchema,
    body: updateStaffBodySchema,
    response: staffListItemSchema,
  }),
  resetStaffTwoFactor: defineRoute({
    ...e.resetStaffTwoFactor,
    params: staffParamsSchema,
    body: emptyBodySchema,
    response: staffListItemSchema,
  }),
  settings: defineRoute({ ...e.settings, response: practiceSettingsResultSchema }),
  updateSettings: defineRoute({
    ...e.updateSettings,
    body: updatePracticeSettingsBodySchema,
    response: practiceSettingsResultSchema,
  }),
  sendLink: defineRoute({
    ...e.sendLink,
    params: adminLinkParamsSchema,
    body: sendLinkBodySchema,
    response: sentMessageSchema,
    status: 201,
  }),
  linkMessages: defineRoute({ ...e.linkMessages, params: adminLinkParamsSchema, response: linkMessagesResultSchema }),
  linkReminders: defineRoute({
    ...e.linkReminders,
    params: adminLinkParamsSchema,
    body: linkRemindersBodySchema,
    response: linkRemindersBodySchema,
  }),
  optOuts: defineRoute({ ...e.optOuts, response: optOutListSchema }),
  reminderPlan: defineRoute({ ...e.reminderPlan, response: reminderPlanResultSchema }),
  updateReminderPlan: defineRoute({
    ...e.updateReminderPlan,
    body: reminderPlanSchema,
    response: reminderPlanResultSchema,
  }),
  notificationPrefs: defineRoute({ ...e.notificationPrefs, response: notificationPrefsSchema }),
  updateNotificationPrefs: defineRoute({
    ...e.updateNotificationPrefs,
    body: notificationPrefsSchema,
    response: notificationPrefsSchema,
  }),
  refund: defineRoute({
    ...e.refund,
    params: adminLinkParamsSchema,
    body: refundBodySchema,
    response: refundResultSchema,
    status: 201,
  }),
  resendReceipt: defineRoute({
    ...e.resendReceipt,
    params: adminLinkParamsSchema,
    response: resendReceiptResultSchema,
    status: 201,
  }),
  flaggedApprovals: defineRoute({ ...e.flaggedApprovals, response: listFlaggedApprovalsResultSchema }),
  voidFlaggedApproval: defineRoute({
    ...e.voidFlaggedApproval,
    params: flaggedApprovalParamsSchema,
    body: voidFlaggedApprovalBodySchema,
    response: voidFlaggedApprovalResultSchema,
    status: 201,
  }),
  refunds: defineRoute({ ...e.refunds, params: adminLinkParamsSchema, response: listRefundsResultSchema }),
  refundOptions: defineRoute({ ...e.refundOptions, params: adminLinkParamsSchema, response: refundOptionsSchema }),
  createWebhook: defineRoute({
    ...e.createWebhook,
    body: createWebhookBodySchema,
    response: webhookEndpointWithSecretSchema,
    status: 201,
  }),
  webhooks: defineRoute({ ...e.webhooks, response: listWebhooksResultSchema }),
  deleteWebhook: defineRoute({ ...e.deleteWebhook, params: webhookIdParamsSchema, response: webhookEndpointSchema }),
  rotateWebhookSecret: defineRoute({
    ...e.rotateWebhookSecret,
    params: webhookIdParamsSchema,
    response: webhookEndpointWithSecretSchema,
  }),
  webhookDeliveries: defineRoute({
    ...e.webhookDeliveries,
    params: webhookIdParamsSchema,
    query: webhookDeliveriesQuerySchema,
    response: listWebhookDeliveriesResultSchema,
  }),
  replayWebhookDelivery: defineRoute({
    ...e.replayWebhookDelivery,
    params: webhookIdParamsSchema,
    response: webhookDeliverySchema,
    status: 201,
  }),
  complianceScripts: defineRoute({ ...e.complianceScripts, response: complianceScriptsResultSchema }),
  tamperCheck: defineRoute({ ...e.tamperCheck, response: tamperCheckResultSchema }),
  tamperChecks: defineRoute({
    ...e.tamperChecks,
    query: complianceListQuerySchema,
    response: tamperChecksResultSchema,
  }),
  cspReports: defineRoute({ ...e.cspReports, query: complianceListQuerySchema, response: cspReportsResultSchema }),
  linkDocuments: defineRoute({
    ...e.linkDocuments,
    params: linkDocumentsParamsSchema,
    response: linkDocumentListSchema,
  }),
  documentPdf: defineRoute({
    ...e.documentPdf,
    params: documentPdfParamsSchema,
    response: z.any().describe('application/pdf'),
  }),
  evidencePack: defineRoute({
    ...e.evidencePack,
    params: adminLinkParamsSchema,
    query: evidencePackQuerySchema,
    response: z.any().describe('application/pdf'),
  }),
  login: defineRoute({ ...e.login, body: loginBodySchema, response: loginResultSchema }),
  me: defineRoute({ ...e.me, response: staffUserSchema }),
  staff: defineRoute({ ...e.staff, response: staffListSchema }),
  createStaff: defineRoute({ ...e.createStaff, body: createStaffBodySchema, response: staffUserSchema, status: 201 }),
  createLink: defineRoute({
    ...e.createLink,
    body: createLinkBodySchema,
    response: createLinkResultSchema,
    status: 201,
  }),
  links: defineRoute({ ...e.links, query: listLinksQuerySchema, response: listLinksResultSchema }),
  link: defineRoute({ ...e.link, params: adminLinkParamsSchema, response: linkDetailSchema }),
  extendLink: defineRoute({
    ...e.extendLink,
    params: adminLinkParamsSchema,
    body: extendLinkWithReasonBodySchema,
    response: linkSummarySchema,
  }),
  payments: defineRoute({ ...e.payments, query: listPaymentsQuerySchema, response: listPaymentsResultSchema }),
  cancelLink: defineRoute({
    ...e.cancelLink,
    params: adminLinkParamsSchema,
    body: linkActionBodySchema,
    response: linkSummarySchema,
  }),
  expireLink: defineRoute({
    ...e.expireLink,
    params: adminLinkParamsSchema,
    body: linkActionBodySchema,
    response: linkSummarySchema,
  }),
  contracts: defineRoute({ ...e.contracts, response: contractsResultSchema }),
  contractPdf: defineRoute({
    ...e.contractPdf,
    params: contractLangParamsSchema,
    query: contractPdfQuerySchema,
    response: z.any().describe('application/pdf'),
  }),
  /** The body is the PDF's bytes (a content-type parser in the route's scope), so the table names no body schema. */
  uploadContract: defineRoute({
    ...e.uploadContract,
    params: contractLangParamsSchema,
    query: contractUploadQuerySchema,
    response: contractUploadResultSchema,
  }),
  removeContract: defineRoute({
    ...e.removeContract,
    params: contractLangParamsSchema,
    response: contractsResultSchema,
  }),
  runPlans: defineRoute({ ...e.runPlans, body: runPlansBodySchema, response: runPlansResultSchema }),
  upcomingCharges: defineRoute({
    ...e.upcomingCharges,
    query: upcomingChargesQuerySchema,
    response: upcomingChargesResultSchema,
  }),
  pausePlan: defineRoute({
    ...e.pausePlan,
    params: adminLinkParamsSchema,
    body: planActionBodySchema,
    response: planActionResultSchema,
  }),
  resumePlan: defineRoute({
    ...e.resumePlan,
    params: adminLinkParamsSchema,
    body: planActionBodySchema,
    response: planActionResultSchema,
  }),
  cancelPlan: defineRoute({
    ...e.cancelPlan,
    params: adminLinkParamsSchema,
    body: planActionBodySchema,
    response: planActionResultSchema,
  }),
  rescheduleInstallment: defineRoute({
    ...e.rescheduleInstallment,
    params: planInstallmentParamsSchema,
    body: rescheduleInstallmentBodySchema,
    response: planActionResultSchema,
  }),
  chargeInstallment: defineRoute({
    ...e.chargeInstallment,
    params: planInstallmentParamsSchema,
    body: planActionBodySchema,
    response: chargeInstallmentResultSchema,
  }),
  refundInstallment: defineRoute({
    ...e.refundInstallment,
    params: planInstallmentParamsSchema,
    body: refundBodySchema,
    response: planActionResultSchema,
    status: 201,
  }),
  planTemplates: defineRoute({ ...e.planTemplates, response: planTemplatesResultSchema }),
  updatePlanTemplates: defineRoute({
    ...e.updatePlanTemplates,
    body: planTemplatesBodySchema,
    response: planTemplatesResultSchema,
  }),
} satisfies { [K in keyof typeof e]: (typeof e)[K] & RouteSchemas };

export type ConsoleRoute = (typeof consoleRoutes)[keyof typeof consoleRoutes];
