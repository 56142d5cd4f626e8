export { adminRoutes } from './admin-routes.js';
export { hashPassword, unusablePasswordHash, verifyPassword } from './passwords.js';
export { staffAccess } from './staff-access.js';
export { staffAdminRoutes } from './staff-admin-routes.js';
export { findStaffByEmail, insertStaffUser, type StaffUserRow } from './staff-queries.js';
export { issueStaffToken, verifyStaffToken } from './staff-tokens.js';
