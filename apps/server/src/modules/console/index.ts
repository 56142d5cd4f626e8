export { consoleRoutes } from './console-routes.js';
export {
  STATE_SQL,
  selectLinkSummaries,
  findLinkSummary,
  toStaffPayment,
  toLinkSummary,
  whereState,
  type LinkSummaryRow,
} from './staff-link-queries.js';
