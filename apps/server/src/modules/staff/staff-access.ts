import type { Config } from '../../config.js';
import type { Queryable } from '../../db/client.js';
import type { StaffAccess } from '../../http/require-staff.js';
import { STAFF_COOKIE, verifyStaffSession } from './staff-sessions.js';
import { assertConsoleOrigin } from './console-origin.js';
import { verifyStaffToken } from './staff-tokens.js';

/** The staff guard's port (http/require-staff.ts): CLI tokens, console sessions and the console's origin. */
export function staffAccess(deps: { db: Queryable; config: Config }): StaffAccess {
  return {
    cookieName: STAFF_COOKIE,
    verifyToken: (token) => verifyStaffToken(deps.db, token),
    verifySession: (cookie, opts) => verifyStaffSession(deps.db, cookie, opts),
    assertConsoleOrigin: (request) => assertConsoleOrigin(deps.config, request),
  };
}
