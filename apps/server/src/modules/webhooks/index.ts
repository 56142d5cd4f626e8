export { emitWebhookForAudit } from './audit-events.js';
export { webhookRoutes } from './webhook-routes.js';
export { startWebhookWorker } from './webhook-worker.js';
