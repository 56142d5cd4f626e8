// Payment plans (issue 28; decision 0204): a link's total and the schedule of its balance. Core, above payments and
// below refunds: payments asks it nothing yet (materialisePlan is called at the deposit's approval by the next slice).
export { createPlan, type CreatePlanOptions } from './create-plan.js';
export { materialisePlan, type MaterialiseOutcome, type MaterialisePlanOptions } from './materialise-plan.js';
export { showPlan } from './show-plan.js';
// The scheduler (decision 0209): notices, instalment charges with a lease and reconciliation, its worker and the
// sandbox-only admin route that runs it at a chosen time.
export {
  runPlanScheduler,
  PLAN_RETRY_DAYS,
  type PlanSchedulerReport,
  type RunPlanSchedulerOptions,
} from './run-plan-scheduler.js';
export { startPlanWorker } from './plan-worker.js';
export { planRoutes } from './plan-routes.js';
export { sealCardToken, openCardToken } from './card-token.js';
