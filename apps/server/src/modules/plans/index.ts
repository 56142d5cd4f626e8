// Payment plans (issue 28; decisions 0204 and 0207): a link's total and the schedule of its balance. Core, above
// payments and below refunds: payments asks it through the LinkPlans port (context.ts, link-plans.ts).
export { createPlan, type CreatePlanOptions } from './create-plan.js';
export { materialisePlan, type MaterialiseOutcome, type MaterialisePlanOptions } from './materialise-plan.js';
export { showPlan } from './show-plan.js';
export { listUpcomingCharges, cardExpiresBefore } from './upcoming-charges.js';
// The stored schedule and the accepted card-on-file agreement, for the dispute evidence pack.
export { planRecord, type PlanRecord, type PlanAgreementRecord } from './plan-record.js';
// The scheduler (decision 0209): notices, instalment charges with a lease and reconciliation, its worker and the
// sandbox-only admin route that runs it at a chosen time.
export {
  runPlanScheduler,
  PLAN_RETRY_DAYS,
  type PlanSchedulerReport,
  type RunPlanSchedulerOptions,
} from './run-plan-scheduler.js';
export { startPlanWorker } from './plan-worker.js';
export { planAdminRoutes } from './plan-routes.js';
export { linkPlans } from './link-plans.js';
export { patientPlanRoutes } from './plans-routes.js';
export { openCardToken, sealCardToken } from './card-token-seal.js';
// The practice's actions (decision 0210): pause, resume, cancel the rest, reschedule and charge one instalment.
export { pausePlan } from './pause-plan.js';
export { resumePlan } from './resume-plan.js';
export { cancelPlan } from './cancel-plan.js';
export { rescheduleInstallment } from './reschedule-installment.js';
export { chargeInstallment } from './charge-installment.js';
export { planActionRoutes, PLAN_MONEY_ROLES } from './plan-action-routes.js';
export { findPlanByLink } from './plans-queries.js';
// The one writer of plan and instalment status; refunds record an instalment's refund through it.
export { recordInstallmentRefund } from './plan-lifecycle.js';
