import {
  adminLinkParamsSchema,
  dollarsToCents,
  flaggedApprovalParamsSchema,
  listFlaggedApprovalsResultSchema,
  listRefundsResultSchema,
  refundBodySchema,
  refundResultSchema,
  voidFlaggedApprovalBodySchema,
  voidFlaggedApprovalResultSchema,
} from '@paylink/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';
import { auditContext, writeAudit } from '../../lib/audit.js';
import { notFound } from '../../lib/errors.js';
import { requireStaff } from '../admin/require-staff.js';
import { errorResponses } from '../../http/route-support.js';
import { listRefundsForLink, toRefund } from './refund-queries.js';
import { refundPayment } from './refund-payment.js';
import { listFlaggedApprovals } from './list-flagged-approvals.js';
import { voidFlaggedApproval } from './void-flagged-approval.js';

const STAFF_SECURITY = [{ bearer: [] }];

/** Money operations are for the billing office and admins; coordinators create links but never give money back. */
export const MONEY_ROLES = ['admin', 'billing'] as const;

export const requireMoneyRole = (ctx: AppContext) => requireStaff(ctx, { roles: MONEY_ROLES });

/** Refunds and voids: POST /api/admin/links/:id/refund and the refunds of a link. */
export async function refundRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const money = requireMoneyRole(ctx);
  const tags = ['money'];

  r.post(
    '/api/admin/links/:id/refund',
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
        params: adminLinkParamsSchema,
        body: refundBodySchema,
        response: { 201: refundResultSchema, ...errorResponses(400, 401, 403, 404, 409, 422, 502) },
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

  r.get(
    '/api/admin/payments/attention',
    {
      preHandler: money,
      schema: {
        tags,
        summary: 'Second approvals flagged by reconciliation that still need a void (billing and admin)',
        security: STAFF_SECURITY,
        response: { 200: listFlaggedApprovalsResultSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => listFlaggedApprovals({ db: ctx.db, actor: auditContext(request) }),
  );

  r.post(
    '/api/admin/payments/attention/:attemptId/void',
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
        params: flaggedApprovalParamsSchema,
        body: voidFlaggedApprovalBodySchema,
        response: { 201: voidFlaggedApprovalResultSchema, ...errorResponses(400, 401, 403, 404, 409, 422, 502) },
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

  r.get(
    '/api/admin/links/:id/refunds',
    {
      preHandler: money,
      schema: {
        tags,
        summary: 'The refunds and voids of a link, oldest first',
        security: STAFF_SECURITY,
        params: adminLinkParamsSchema,
        response: { 200: listRefundsResultSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const link = await ctx.db.query('select 1 from link where id = $1', [request.params.id]);
      if (link.rowCount === 0) throw notFound('No link with this id.');
      const rows = await listRefundsForLink(ctx.db, request.params.id);
      await writeAudit(ctx.db, { ...auditContext(request), action: 'admin.refunds_viewed', linkId: request.params.id });
      return { refunds: rows.map(toRefund) };
    },
  );
}
