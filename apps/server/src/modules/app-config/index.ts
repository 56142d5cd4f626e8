export { appConfigRoutes } from './app-config-routes.js';
export { getAppConfig } from './get-app-config.js';
export { messageTimeZone, practiceSettings, practiceTimeZone, updatePracticeSettings } from './practice-settings.js';
// The practice's default payment plans for the new-link form (issue 28; decision 0212).
export { loadPlanTemplates, savePlanTemplates } from './plan-templates.js';
