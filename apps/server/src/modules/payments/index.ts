export { linkPayments } from './link-payments.js';
export { findAttempt } from './payment-queries.js';
export { flagSecondApproval } from './flag-second-approval.js';
export { paymentRoutes } from './payment-routes.js';
export { receiptRoutes } from './receipt-routes.js';
export { startReconcileWorker } from './reconcile-payment.js';
