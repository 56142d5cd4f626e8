export { devSettleRoutes } from './dev-settle-routes.js';
export { exportRoutes } from './export-routes.js';
export { listRefundsForLink } from './refund-queries.js';
export { refundRoutes } from './refund-routes.js';
