/**
 * Server features the console uses only when the server has them. Sending a link by SMS/e-mail is issue 14's
 * POST /api/admin/links/:id/send: until it is on main the console offers "copy link" only.
 */
export const LINK_SEND_AVAILABLE = false;
