export { appConfigRoutes } from './app-config-routes.js';
export { practiceSettings, practiceTimeZone, updatePracticeSettings } from './practice-settings.js';
