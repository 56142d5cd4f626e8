export { createLink } from './create-link.js';
export {
  applyLinkChange,
  completeByPayment,
  firstOpenStepBeforePayment,
  setStepDocumentUrls,
  stepsIncomplete,
  writeStepList,
  type LinkChange,
} from './link-lifecycle.js';
export {
  LINK_NOT_AUTHORIZED,
  USABLE_LINK_SQL,
  findLink,
  findPayment,
  findPaymentById,
  linkState,
  listSteps,
  lockLinkForSession,
  HAS_PLAN_SQL,
  personalLinkUrl,
  requireUsableLink,
  type LinkRow,
  type PaymentRow,
} from './link-queries.js';
export { linkRoutes } from './link-routes.js';
export { lookupPhone } from './lookup-phone.js';
