import { dollarsToCents, consoleRoutes } from '@paylink/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { auditContext } from '../../lib/audit.js';
import { requireStaff } from '../../http/require-staff.js';
import { errorResponses } from '../../http/route-support.js';
import { listLinkRefunds } from './list-link-refunds.js';
import { refundOptions } from './refund-options.js';
import { refundPayment } from './refund-payment.js';
import { refundInstallment } from './refund-installment.js';
import { listFlaggedApprovals } from './list-flagged-approvals.js';
import { voidFlaggedApproval } from './void-flagged-approval.js';
import { route } from '../../http/route.js';

const STAFF_SECURITY = [{ bearer: [] }];

/** Money operations are for the billing office and admins; coordinators create links but never give money back. */
const MONEY_ROLES = ['admin', 'billing'] as const;

const requireMoneyRole = (ctx: AppContext) => requireStaff(ctx, { roles: MONEY_ROLES });

/** Refunds and voids: POST /api/admin/links/:id/refund and the refunds of a link. */
export async function refundRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const money = requireMoneyRole(ctx);
  const tags = ['money'];

  route(
    app,
    consoleRoutes.refund,
    {
      preHandler: money,
      schema: {
        tags,
        summary: 'Refund or void the payment of a link (billing and admin)',
        description:
          'amount in US dollars; absent = everything not yet refunded. Chooses a void (ccvoid) while the sale is ' +
          'unsettled at the gateway (whole amount only) and a return (ccreturn, full or partial) once settled. ' +
          'Send an Idempotency-Key header: the same key gets the same answer and never a second refund.',
        security: STAFF_SECURITY,
        response: errorResponses(400, 401, 403, 404, 409, 422, 502),
      },
    },
    async (request, reply) => {
      const result = await refundPayment({
        db: ctx.db,
        gateway: ctx.providers.gateway,
        actor: auditContext(request),
        staffUserId: request.staff!.userId,
        linkId: request.params.id,
        amountCents: request.body.amount === undefined ? undefined : dollarsToCents(request.body.amount),
        reason: request.body.reason,
        practiceFallback: { name: ctx.config.PRACTICE_NAME },
      });
      return reply.status(201).send(result);
    },
  );

  route(
    app,
    consoleRoutes.refundInstallment,
    {
      preHandler: money,
      schema: {
        tags: ['plans', ...tags],
        summary: 'Refund or void a paid plan installment (billing and admin)',
        description:
          'The deposit’s refund rules for one installment’s sale: amount in US dollars (absent = all of it not yet ' +
          'refunded); a void (whole amount) before the gateway settles, a return (full or partial) after. The ' +
          'installment becomes refunded when all of it is given back; the patient gets the refund receipt.',
        security: STAFF_SECURITY,
        response: errorResponses(400, 401, 403, 404, 409, 502),
      },
    },
    async (request, reply) => {
      const result = await refundInstallment({
        db: ctx.db,
        gateway: ctx.providers.gateway,
        actor: auditContext(request),
        staffUserId: request.staff!.userId,
        linkId: request.params.id,
        n: request.params.n,
        amountCents: request.body.amount === undefined ? undefined : dollarsToCents(request.body.amount),
        reason: request.body.reason,
        practiceFallback: { name: ctx.config.PRACTICE_NAME },
      });
      return reply.status(201).send(result);
    },
  );

  route(
    app,
    consoleRoutes.refundOptions,
    {
      preHandler: money,
      schema: {
        tags,
        summary: 'Whether the payment can be refunded in part today, or only voided in full (billing and admin)',
        description:
          'Asks the gateway whether the sale has settled: before settlement only a void of the whole amount is ' +
          'possible (voidOnly). The refund dialog says so at its Review step.',
        security: STAFF_SECURITY,
        response: errorResponses(401, 403, 404, 409, 502),
      },
    },
    async (request) =>
      refundOptions({
        db: ctx.db,
        gateway: ctx.providers.gateway,
        actor: auditContext(request),
        linkId: request.params.id,
      }),
  );

  route(
    app,
    consoleRoutes.flaggedApprovals,
    {
      preHandler: money,
      schema: {
        tags,
        summary: 'Second approvals flagged by reconciliation that still need a void (billing and admin)',
        security: STAFF_SECURITY,
        response: errorResponses(401, 403),
      },
    },
    async (request) => listFlaggedApprovals({ db: ctx.db, actor: auditContext(request) }),
  );

  route(
    app,
    consoleRoutes.voidFlaggedApproval,
    {
      preHandler: money,
      schema: {
        tags,
        summary: 'Void (or return) a second approval flagged by reconciliation, in one action (billing and admin)',
        description:
          'Gives back the whole flagged charge (`attention[].attemptId` of GET /api/admin/payments): a void while ' +
          'unsettled, a return once settled. Records the refund, resolves the flag, audits it and sends the refund ' +
          "receipt; the link's recorded payment is untouched. Send an Idempotency-Key header.",
        security: STAFF_SECURITY,
        response: errorResponses(400, 401, 403, 404, 409, 422, 502),
      },
    },
    async (request, reply) => {
      const result = await voidFlaggedApproval({
        db: ctx.db,
        gateway: ctx.providers.gateway,
        actor: auditContext(request),
        staffUserId: request.staff!.userId,
        attemptId: request.params.attemptId,
        reason: request.body.reason,
        practiceFallback: { name: ctx.config.PRACTICE_NAME },
      });
      return reply.status(201).send(result);
    },
  );

  route(
    app,
    consoleRoutes.refunds,
    {
      preHandler: money,
      schema: {
        tags,
        summary: 'The refunds and voids of a link, oldest first',
        security: STAFF_SECURITY,
        response: errorResponses(400, 401, 403, 404),
      },
    },
    async (request) => listLinkRefunds({ db: ctx.db, actor: auditContext(request), linkId: request.params.id }),
  );
}
