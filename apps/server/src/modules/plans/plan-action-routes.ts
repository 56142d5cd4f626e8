import { consoleRoutes } from '@paylink/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { auditContext } from '../../lib/audit.js';
import { route } from '../../http/route.js';
import { errorResponses } from '../../http/route-support.js';
import { requireStaff } from '../../http/require-staff.js';
import { cancelPlan } from './cancel-plan.js';
import { chargeInstallment } from './charge-installment.js';
import { pausePlan } from './pause-plan.js';
import { rescheduleInstallment } from './reschedule-installment.js';
import { resumePlan } from './resume-plan.js';

const STAFF_SECURITY: Record<string, string[]>[] = [{ bearer: [] }, { staffCookie: [] }];

/**
 * Who may act on a plan (decision 0210). Changing the schedule (pause, resume, a new date, cancelling the rest) is the
 * patient relationship: coordinators, the billing office and admins. Moving money (charge now; refunds live in the
 * refunds module) is the billing office's and admins', as for the deposit's refunds.
 */
export const PLAN_SCHEDULE_ROLES = ['admin', 'coordinator', 'billing'] as const;
export const PLAN_MONEY_ROLES = ['admin', 'billing'] as const;

/** The practice's actions on a plan: pause, resume, cancel the rest, reschedule and charge one instalment. */
export async function planActionRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const schedule = requireStaff(ctx, { roles: PLAN_SCHEDULE_ROLES });
  const money = requireStaff(ctx, { roles: PLAN_MONEY_ROLES });
  const base = { tags: ['plans'], security: STAFF_SECURITY };

  route(
    app,
    consoleRoutes.pausePlan,
    {
      preHandler: schedule,
      schema: {
        ...base,
        summary: 'Pause a payment plan: no notice and no charge until it is resumed',
        response: errorResponses(400, 401, 403, 404, 409),
      },
    },
    async (request) =>
      pausePlan({ db: ctx.db, actor: auditContext(request), linkId: request.params.id, reason: request.body?.reason }),
  );

  route(
    app,
    consoleRoutes.resumePlan,
    {
      preHandler: schedule,
      schema: {
        ...base,
        summary: 'Resume a paused plan',
        description:
          'An installment whose charge day passed while the plan was paused is told again first: the scheduler sends ' +
          'a new notice and charges it 7 days later.',
        response: errorResponses(400, 401, 403, 404, 409),
      },
    },
    async (request) =>
      resumePlan({
        db: ctx.db,
        config: ctx.config,
        actor: auditContext(request),
        linkId: request.params.id,
        reason: request.body?.reason,
      }),
  );

  route(
    app,
    consoleRoutes.cancelPlan,
    {
      preHandler: schedule,
      schema: {
        ...base,
        summary: 'Cancel the rest of a plan; the patient is sent a confirmation at once',
        description:
          'Open installments become cancelled and the plan cancelled. 409 charge_in_progress when an installment’s ' +
          'sale was already sent to the gateway and its answer is not known yet (try again after the next pass).',
        response: errorResponses(400, 401, 403, 404, 409),
      },
    },
    async (request) => {
      const { plan } = await cancelPlan({
        db: ctx.db,
        config: ctx.config,
        actor: auditContext(request),
        linkId: request.params.id,
        reason: request.body?.reason,
      });
      return { plan };
    },
  );

  route(
    app,
    consoleRoutes.rescheduleInstallment,
    {
      preHandler: schedule,
      schema: {
        ...base,
        summary: 'Move one open installment to a new date (at least 7 days away: the patient is told again)',
        response: errorResponses(400, 401, 403, 404, 409),
      },
    },
    async (request) =>
      rescheduleInstallment({
        db: ctx.db,
        config: ctx.config,
        actor: auditContext(request),
        linkId: request.params.id,
        n: request.params.n,
        dueOn: request.body.dueOn,
        reason: request.body.reason,
      }),
  );

  route(
    app,
    consoleRoutes.chargeInstallment,
    {
      preHandler: money,
      schema: {
        ...base,
        summary: 'Charge one open installment now, at the patient’s request (billing and admin)',
        description:
          'The scheduler’s own charge: its lease, idempotent merchant transaction id and reconciliation. A decline ' +
          'is an answer (outcome declined or failed), not an error.',
        response: errorResponses(400, 401, 403, 404, 409),
      },
    },
    async (request) =>
      chargeInstallment({
        db: ctx.db,
        gateway: ctx.providers.gateway,
        config: ctx.config,
        actor: auditContext(request),
        linkId: request.params.id,
        n: request.params.n,
        reason: request.body?.reason,
        log: request.log,
      }),
  );
}
