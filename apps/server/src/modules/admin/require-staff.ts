import {
  CONSOLE_BACKGROUND_HEADER,
  CONSOLE_CSRF_HEADER,
  SESSION_EXPIRES_HEADER,
  type StaffRole,
} from '@paylink/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { AppError, forbidden } from '../../lib/errors.js';
import { markGuardFirst } from '../../http/guards-first.js';
import { STAFF_COOKIE, verifyStaffSession } from '../console-auth/staff-sessions.js';
import { assertConsoleOrigin } from './console-origin.js';
import { verifyStaffToken } from './staff-tokens.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** How the staff user authenticated: the console's cookie session or a bearer token (CLI). */
    staffAuth?: { via: 'cookie'; sessionId: string; idleExpiresAt: Date } | { via: 'bearer'; tokenId: string };
  }
}

/** Who may do what (issue 13). The console hides what a role cannot do; the server refuses it with 403. */
export const ROLES = {
  /** Create and change links (create, cancel, expire, extend, send). */
  manageLinks: ['admin', 'coordinator'],
  /** Staff accounts and practice settings. */
  admin: ['admin'],
} as const satisfies Record<string, readonly StaffRole[]>;

export interface RequireStaffOptions {
  /** Roles allowed (default: every staff role). */
  roles?: readonly StaffRole[];
  /** @deprecated use roles: ['admin'] */
  role?: 'admin';
  /** Also answer a session that still has to set up two-factor (the session and enrolment routes only). */
  allowEnrolmentOnly?: boolean;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * preHandler for /api/admin: a bearer token (`Authorization: Bearer plk_...`, the CLI) or the console's session cookie.
 * Cookie-authenticated mutations must carry `x-paylink-console: 1` and, when the browser sends an Origin, come from
 * PUBLIC_URL's origin, or the request's own origin when PUBLIC_URL was not set (CSRF, on top of SameSite=Strict;
 * console-origin.ts). `roles` limits the route to those roles (else 403).
 */
export function requireStaff(ctx: AppContext, opts: RequireStaffOptions = {}) {
  const roles: readonly StaffRole[] | undefined = opts.roles ?? (opts.role ? [opts.role] : undefined);
  // Runs as onRequest even when a route lists it as preHandler: 401/403 before any body validation (400).
  return markGuardFirst(async (request: FastifyRequest, reply: FastifyReply) => {
    const h = request.headers.authorization;
    const bearer = h && /^Bearer\s+\S+$/i.test(h) ? h.replace(/^Bearer\s+/i, '') : undefined;
    const cookie = request.cookies?.[STAFF_COOKIE];
    let staff: { userId: string; email: string; role: StaffRole };
    if (bearer) {
      const t = await verifyStaffToken(ctx.db, bearer);
      if (!t) throw new AppError('unauthorized', 'The staff token is invalid, expired or revoked.');
      staff = t;
      request.staffAuth = { via: 'bearer', tokenId: t.tokenId };
    } else if (cookie) {
      if (!SAFE_METHODS.has(request.method)) {
        if (request.headers[CONSOLE_CSRF_HEADER] !== '1') {
          throw new AppError('csrf', 'This request did not come from the console. Reload the page and retry.');
        }
        assertConsoleOrigin(ctx.config, request);
      }
      const background = request.headers[CONSOLE_BACKGROUND_HEADER] === '1';
      const s = await verifyStaffSession(ctx.db, cookie, { touch: !background });
      if (!s) throw new AppError('session_expired', 'Your session has ended. Sign in again.');
      if (s.enrolmentOnly && !opts.allowEnrolmentOnly) {
        throw new AppError('two_factor_enrolment_required', 'Set up two-factor sign-in to continue.');
      }
      staff = s;
      request.staffAuth = { via: 'cookie', sessionId: s.sessionId, idleExpiresAt: s.idleExpiresAt };
      reply.header(SESSION_EXPIRES_HEADER, s.idleExpiresAt.toISOString());
    } else {
      throw new AppError('unauthorized', 'Sign in, or send a staff token: Authorization: Bearer <token>.');
    }
    if (roles && !roles.includes(staff.role)) throw forbidden(roleMessage(roles));
    request.staff = { userId: staff.userId, email: staff.email, role: staff.role };
  });
}

function roleMessage(roles: readonly StaffRole[]): string {
  return roles.length === 1 && roles[0] === 'admin'
    ? 'Only an admin can do this.'
    : `Your role cannot do this (allowed: ${roles.join(', ')}).`;
}
