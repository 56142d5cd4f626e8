// The staff area: the console's sign-in and two-factor, staff users, CLI tokens and the coordinator API (admin routes).
export { adminRoutes } from './admin-routes.js';
export { hashPassword, unusablePasswordHash, verifyPassword } from './passwords.js';
export { staffAccess } from './staff-access.js';
export { staffAdminRoutes } from './staff-admin-routes.js';
export { findStaffByEmail, insertStaffUser, type StaffUserRow } from './staff-queries.js';
export { issueStaffToken, verifyStaffToken } from './staff-tokens.js';
export { consoleAuthRoutes } from './console-auth-routes.js';
export { resealTotpSecrets } from './totp.js';
