/**
 * The practice console's contract with the server (everything under /api/admin that the console calls), one file per
 * area. Amounts are US dollars on the wire; times are ISO 8601 strings (UTC). Every route also accepts a staff bearer
 * token (CLI); the console uses the httpOnly session cookie set by POST /api/admin/session.
 */
export * from './session.js';
export * from './staff.js';
export * from './staff-payment.js';
export * from './links.js';
export * from './payments.js';
export * from './funnel.js';
export * from './documents.js';
export * from './settings.js';
