export { messagingRoutes } from './messaging-routes.js';
export { startMessagingWorker } from './messaging-worker.js';
export { sendLink } from './send-link.js';
