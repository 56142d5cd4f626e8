export { devSettleRoutes } from './dev-settle-routes.js';
export { exportRoutes } from './export-routes.js';
export {
  INSTALLMENT_AT,
  linkMoney,
  MONEY_SUMS,
  PAYMENT_AT,
  SALES_ORDER,
  salesSql,
  type LinkMoney,
  type MoneySums,
  type ReversalRow,
  type SaleDetailRow,
  type SaleFilters,
  type SaleRow,
} from './money-movements.js';
export { listRefundsForLink } from './refund-queries.js';
export { refundRoutes } from './refund-routes.js';
