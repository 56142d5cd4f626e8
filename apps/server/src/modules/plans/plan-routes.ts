import { consoleRoutes } from '@paylink/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { auditContext, writeAudit } from '../../lib/audit.js';
import { forbidden } from '../../lib/errors.js';
import { route } from '../../http/route.js';
import { errorResponses } from '../../http/route-support.js';
import { requireStaff } from '../../http/require-staff.js';
import { runPlanScheduler } from './run-plan-scheduler.js';

const STAFF_SECURITY: Record<string, string[]>[] = [{ bearer: [] }, { staffCookie: [] }];

/** `paylink plans run --now`: one scheduler pass at a chosen time, for trying plans out in the sandbox. */
export async function planAdminRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const admin = requireStaff(ctx, { roles: ['admin'] });
  route(
    app,
    consoleRoutes.runPlans,
    {
      preHandler: admin,
      schema: {
        tags: ['plans'],
        summary: 'Run the payment-plan scheduler once at a chosen time (sandbox mode only)',
        security: STAFF_SECURITY,
        response: errorResponses(400, 401, 403),
      },
    },
    async (request) => {
      // A moved clock would charge real cards early: production runs the scheduler on the real clock only.
      if (ctx.config.mode !== 'sandbox') {
        throw forbidden(
          'Running plans at a chosen time is for sandbox mode only; production runs them on the real clock.',
        );
      }
      const now = new Date(request.body.now);
      await writeAudit(ctx.db, { ...auditContext(request), action: 'plans.run', details: { now: now.toISOString() } });
      const report = await runPlanScheduler({
        db: ctx.db,
        gateway: ctx.providers.gateway,
        config: ctx.config,
        now,
        log: request.log,
      });
      return { now: now.toISOString(), ...report };
    },
  );
}
