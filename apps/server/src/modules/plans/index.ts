// Payment plans (issue 28; decision 0204): a link's total and the schedule of its balance. Core, above payments and
// below refunds: payments asks it nothing yet (materialisePlan is called at the deposit's approval by the next slice).
export { createPlan, type CreatePlanOptions } from './create-plan.js';
export { materialisePlan, type MaterialiseOutcome, type MaterialisePlanOptions } from './materialise-plan.js';
export { showPlan } from './show-plan.js';
