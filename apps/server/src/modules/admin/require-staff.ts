import type { StaffRole } from '@paylink/shared';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { AppError, forbidden } from '../../lib/errors.js';
import { markGuardFirst } from '../../http/guards-first.js';
import { verifyStaffToken } from './staff-tokens.js';

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
}

/** preHandler for /api/admin: `Authorization: Bearer plk_...`; `roles` limits the route to those roles (else 403). */
export function requireStaff(ctx: AppContext, opts: RequireStaffOptions = {}) {
  const roles: readonly StaffRole[] | undefined = opts.roles ?? (opts.role ? [opts.role] : undefined);
  // Runs as onRequest even when a route lists it as preHandler: 401/403 before any body validation (400).
  return markGuardFirst(async (request: FastifyRequest) => {
    const h = request.headers.authorization;
    const token = h && /^Bearer\s+\S+$/i.test(h) ? h.replace(/^Bearer\s+/i, '') : undefined;
    if (!token) throw new AppError(401, 'unauthorized', 'A staff token is required: Authorization: Bearer <token>.');
    const staff = await verifyStaffToken(ctx.db, token);
    if (!staff) throw new AppError(401, 'unauthorized', 'The staff token is invalid, expired or revoked.');
    if (roles && !roles.includes(staff.role)) throw forbidden(roleMessage(roles));
    request.staff = { userId: staff.userId, email: staff.email, role: staff.role };
  });
}

function roleMessage(roles: readonly StaffRole[]): string {
  return roles.length === 1 && roles[0] === 'admin'
    ? 'Only an admin can do this.'
    : `Your role cannot do this (allowed: ${roles.join(', ')}).`;
}
