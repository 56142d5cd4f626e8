import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { AppError, forbidden } from '../../lib/errors.js';
import { markGuardFirst } from '../../http/guards-first.js';
import { verifyStaffToken } from './staff-tokens.js';

/** preHandler for /api/admin: `Authorization: Bearer plk_...` (header only; cookies are the patient's). */
export function requireStaff(ctx: AppContext, opts: { role?: 'admin' } = {}) {
  // Runs as onRequest even when a route lists it as preHandler: 401/403 before any body validation (400).
  return markGuardFirst(async (request: FastifyRequest) => {
    const h = request.headers.authorization;
    const token = h && /^Bearer\s+\S+$/i.test(h) ? h.replace(/^Bearer\s+/i, '') : undefined;
    if (!token) throw new AppError(401, 'unauthorized', 'A staff token is required: Authorization: Bearer <token>.');
    const staff = await verifyStaffToken(ctx.db, token);
    if (!staff) throw new AppError(401, 'unauthorized', 'The staff token is invalid, expired or revoked.');
    if (opts.role === 'admin' && staff.role !== 'admin') throw forbidden('Only an admin can do this.');
    request.staff = { userId: staff.userId, email: staff.email, role: staff.role };
  });
}
