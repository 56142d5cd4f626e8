// Payment plans (issue 28; decisions 0204 and 0207): a link's total and the schedule of its balance. Core, above
// payments and below refunds: payments asks it through the LinkPlans port (context.ts, link-plans.ts).
export { createPlan, type CreatePlanOptions } from './create-plan.js';
export { materialisePlan, type MaterialiseOutcome, type MaterialisePlanOptions } from './materialise-plan.js';
export { showPlan } from './show-plan.js';
export { linkPlans } from './link-plans.js';
export { planRoutes } from './plans-routes.js';
export { openCardToken, sealCardToken } from './card-token-seal.js';
