export { complianceRoutes } from './compliance-routes.js';
export { startTamperWorker } from './tamper-worker.js';
