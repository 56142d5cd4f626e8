import {
  CONSOLE_BACKGROUND_HEADER,
  CONSOLE_CSRF_HEADER,
  SESSION_EXPIRES_HEADER,
  type StaffRole,
} from '@paylink/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, forbidden } from '../lib/errors.js';
import { markGuardFirst } from './guards-first.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** How the staff user authenticated: the console's cookie session or a bearer token (CLI). */
    staffAuth?: { via: 'cookie'; sessionId: string; idleExpiresAt: Date } | { via: 'bearer'; tokenId: string };
  }
}

/**
 * How a staff member is recognised, given to the guard through the context by the staff-access modules (admin's
 * tokens, console-auth's sessions; wired in main.ts): the guard lives here beside the patient guards, and http/
 * imports no module (decision 0199).
 */
export interface StaffAccess {
  /** The console's session cookie name. */
  cookieName: string;
  /** A CLI token (`plk_…`): its user, or null when invalid, expired or revoked. */
  verifyToken(token: string): Promise<{ userId: string; email: string; role: StaffRole; tokenId: string } | null>;
  /** A console session: its user, or null when ended. `touch` extends the idle time (not for background polls). */
  verifySession(
    cookie: string,
    opts: { touch: boolean },
  ): Promise<{
    userId: string;
    email: string;
    role: StaffRole;
    sessionId: string;
    idleExpiresAt: Date;
    enrolmentOnly: boolean;
    passwordChangeRequired: boolean;
  } | null>;
  /** Throws when a cookie-authenticated change comes from another origin than the console's (CSRF). */
  assertConsoleOrigin(request: FastifyRequest): void;
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
  /** Also answer a session whose password an admin reset (the session, sign-out and change-password routes only). */
  allowPasswordChange?: boolean;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * preHandler for /api/admin: a bearer token (`Authorization: Bearer plk_...`, the CLI) or the console's session cookie.
 * Cookie-authenticated mutations must carry `x-paylink-console: 1` and, when the browser sends an Origin, come from
 * PUBLIC_URL's origin, or the request's own origin when PUBLIC_URL was not set (CSRF, on top of SameSite=Strict;
 * console-origin.ts). `roles` limits the route to those roles (else 403).
 */
export function requireStaff(ctx: { staffAccess: StaffAccess }, opts: RequireStaffOptions = {}) {
  const roles: readonly StaffRole[] | undefined = opts.roles ?? (opts.role ? [opts.role] : undefined);
  // Runs as onRequest even when a route lists it as preHandler: 401/403 before any body validation (400).
  return markGuardFirst(async (request: FastifyRequest, reply: FastifyReply) => {
    const h = request.headers.authorization;
    const bearer = h && /^Bearer\s+\S+$/i.test(h) ? h.replace(/^Bearer\s+/i, '') : undefined;
    const access = ctx.staffAccess;
    const cookie = request.cookies?.[access.cookieName];
    let staff: { userId: string; email: string; role: StaffRole };
    if (bearer) {
      const t = await access.verifyToken(bearer);
      if (!t) throw new AppError('unauthorized', 'The staff token is invalid, expired or revoked.');
      staff = t;
      request.staffAuth = { via: 'bearer', tokenId: t.tokenId };
    } else if (cookie) {
      if (!SAFE_METHODS.has(request.method)) {
        if (request.headers[CONSOLE_CSRF_HEADER] !== '1') {
          throw new AppError('csrf', 'This request did not come from the console. Reload the page and retry.');
        }
        access.assertConsoleOrigin(request);
      }
      const background = request.headers[CONSOLE_BACKGROUND_HEADER] === '1';
      const s = await access.verifySession(cookie, { touch: !background });
      if (!s) throw new AppError('session_expired', 'Your session has ended. Sign in again.');
      if (s.enrolmentOnly && !opts.allowEnrolmentOnly) {
        throw new AppError('two_factor_enrolment_required', 'Set up two-factor sign-in to continue.');
      }
      if (s.passwordChangeRequired && !opts.allowPasswordChange) {
        throw new AppError('password_change_required', 'An admin reset your password: choose a new one to continue.');
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
