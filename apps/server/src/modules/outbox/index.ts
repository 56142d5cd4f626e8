export { devOutboxRoutes } from './dev-outbox-routes.js';
export { startOutboxWorker } from './outbox-worker.js';
