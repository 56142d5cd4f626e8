export { consoleRoutes } from './console-routes.js';
export {
  STATE_SQL,
  SUMMARY_SELECT,
  findLinkSummary,
  toAdminPayment,
  toLinkSummary,
  type LinkSummaryRow,
} from './staff-link-queries.js';
