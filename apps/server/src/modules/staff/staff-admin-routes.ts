import { consoleRoutes as routeTable } from '@paylink/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { auditContext } from '../../lib/audit.js';
import { ROLES, requireStaff } from '../../http/require-staff.js';
import { allowEmptyJsonBodies, errorResponses } from '../../http/route-support.js';
import { route } from '../../http/route.js';
import { resetStaffPassword, resetStaffTwoFactor, updateStaff } from './staff-admin.js';

const security: { [k: string]: string[] }[] = [{ bearer: [] }, { staffCookie: [] }];

/** The console's staff screen: an admin changes a staff user or resets their two-factor. */
export async function staffAdminRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(async (scope) => {
    allowEmptyJsonBodies(scope);
    const tags = ['console'];
    const admin = requireStaff(ctx, { roles: ROLES.admin });

    route(
      scope,
      routeTable.updateStaff,
      {
        preHandler: admin,
        schema: {
          tags,
          summary: 'Change a staff user (admins only): name, role, deactivate/reactivate, password',
          description:
            'Deactivating, a new role or a new password ends the user’s sessions and tokens; a password set here ' +
            'must be changed at the next sign-in.',
          security,
          response: errorResponses(400, 401, 403, 404, 409),
        },
      },
      async (request) =>
        ctx.db.transaction((tx) =>
          updateStaff(tx, {
            actor: auditContext(request),
            actingUserId: request.staff!.userId,
            id: request.params.id,
            changes: request.body,
          }),
        ),
    );

    route(
      scope,
      routeTable.resetStaffTwoFactor,
      {
        preHandler: admin,
        schema: {
          tags,
          summary: 'Reset a staff user’s two-factor (admins only); ends their sessions and tokens',
          security,
          response: errorResponses(401, 403, 404),
        },
      },
      async (request) =>
        ctx.db.transaction((tx) => resetStaffTwoFactor(tx, { actor: auditContext(request), id: request.params.id })),
    );

    route(
      scope,
      routeTable.resetStaffPassword,
      {
        preHandler: admin,
        schema: {
          tags,
          summary: 'Reset a staff user’s password (admins only): a generated temporary password, answered once',
          description:
            'The user must choose a new password at the next sign-in; every session and token of theirs ends.',
          security,
          response: errorResponses(400, 401, 403, 404),
        },
      },
      async (request) =>
        ctx.db.transaction((tx) =>
          resetStaffPassword(tx, {
            actor: auditContext(request),
            actingUserId: request.staff!.userId,
            id: request.params.id,
          }),
        ),
    );
  });
}
