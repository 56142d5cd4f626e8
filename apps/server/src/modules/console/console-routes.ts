import { type StaffRole, consoleRoutes as routeTable } from '@paylink/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { auditContext, writeAudit } from '../../lib/audit.js';
import { forgetPracticeRows } from '../../lib/practice-rows.js';
import { ROLES, requireStaff } from '../../http/require-staff.js';
import { allowEmptyJsonBodies, errorResponses } from '../../http/route-support.js';
import { boardChanges, queryBoard } from './board.js';
import { queryFunnel } from './funnel.js';
import { showConsoleLink } from './link-detail.js';
import { exportPaymentsCsv, paymentReport } from './payments-report.js';
import {
  loadPlanTemplates,
  practiceSettings,
  practiceTimeZone,
  savePlanTemplates,
  updatePracticeSettings,
} from '../app-config/index.js';
import { listCoordinators } from './coordinators.js';
import { listUpcomingCharges } from '../plans/index.js';
import { route } from '../../http/route.js';

const security: { [k: string]: string[] }[] = [{ bearer: [] }, { staffCookie: [] }];

/** What the practice console reads beyond the coordinator API: board, link page, payments, funnel, staff, settings. */
export async function consoleRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(async (scope) => {
    allowEmptyJsonBodies(scope);
    const tags = ['console'];
    const staff = requireStaff(ctx);
    const admin = requireStaff(ctx, { roles: ROLES.admin });
    const who = (request: { staff?: { userId: string; role: string } }) => ({
      userId: request.staff!.userId,
      role: request.staff!.role as StaffRole,
    });

    route(
      scope,
      routeTable.board,
      {
        preHandler: staff,
        schema: {
          tags,
          summary: 'The links board: newest first, search, filters, step progress, payment; paged',
          description:
            'q matches patient name, payor name, e-mail, phone digits or the exact link id. status and step take ' +
            'comma-separated lists. Audited (admin.links_listed). Answers a cursor for /api/admin/board/changes.',
          security,
          response: errorResponses(400, 401),
        },
      },
      async (request) => queryBoard({ ctx, actor: auditContext(request), staff: who(request), query: request.query }),
    );

    route(
      scope,
      routeTable.boardChanges,
      {
        preHandler: staff,
        schema: {
          tags,
          summary: 'Ids of links with activity since a cursor (poll every ≤ 10 s with x-paylink-background: 1)',
          security,
          response: errorResponses(400, 401),
        },
      },
      async (request) => boardChanges(ctx, request.query.since),
    );

    route(
      scope,
      routeTable.linkDetail,
      {
        preHandler: staff,
        schema: {
          tags,
          summary: 'One link for the console: details, steps, payment and attempts, plain-language audit timeline',
          security,
          response: errorResponses(400, 401, 404),
        },
      },
      async (request) => showConsoleLink({ ctx, actor: auditContext(request), id: request.params.id }),
    );

    route(
      scope,
      routeTable.paymentReport,
      {
        preHandler: staff,
        schema: {
          tags,
          summary: 'Payments (approved and attempted) with totals per day, week or month; filters; paged',
          security,
          response: errorResponses(400, 401),
        },
      },
      async (request) =>
        paymentReport({ ctx, actor: auditContext(request), staffId: request.staff!.userId, query: request.query }),
    );

    route(
      scope,
      routeTable.paymentExport,
      {
        preHandler: staff,
        schema: {
          tags,
          summary: 'Payments as CSV (RFC 4180; amounts in dollars; ISO 8601 times; card brand + last 4 only)',
          description: 'Same filters as /api/admin/payments/report; every matching row (no paging). Audited.',
          security,
          response: errorResponses(400, 401),
        },
      },
      async (request, reply) => {
        // Streamed (decision 0228): the headers go with the first rows; an error after them cuts the download.
        const csv = await exportPaymentsCsv({
          ctx,
          actor: auditContext(request),
          staffId: request.staff!.userId,
          query: request.query,
        });
        const day = new Date().toISOString().slice(0, 10);
        return (
          reply
            .type('text/csv; charset=utf-8; header=present')
            .header('content-disposition', `attachment; filename="paylink-payments-${day}.csv"`)
            .header('cache-control', 'no-store')
            // A stream is sent as it is (fastify skips the serializer); the table's answer is its text.
            .send(csv as unknown as string)
        );
      },
    );

    route(
      scope,
      routeTable.funnel,
      {
        preHandler: staff,
        schema: {
          tags,
          summary: 'The funnel: created → sent → opened → signed in → each step → paid, per coordinator; stalled links',
          security,
          response: errorResponses(400, 401),
        },
      },
      async (request) =>
        queryFunnel({ ctx, actor: auditContext(request), staffId: request.staff!.userId, query: request.query }),
    );

    route(
      scope,
      routeTable.coordinators,
      {
        preHandler: staff,
        schema: {
          tags,
          summary: 'Staff who create links (names and e-mails), for the board and funnel filters; every role',
          security,
          response: errorResponses(401),
        },
      },
      async () => ({ coordinators: await listCoordinators(ctx.db) }),
    );

    route(
      scope,
      routeTable.upcomingCharges,
      {
        preHandler: staff,
        schema: {
          tags,
          summary: 'Plan installments due in the next days (default 30, at most 90), with card expiry and last decline',
          description:
            "Open installments of active plans due from today (the practice's date) through today + days, and those " +
            'being retried after a decline. Every role; audited (admin.plans_upcoming_listed).',
          security,
          response: errorResponses(400, 401),
        },
      },
      async (request) =>
        ctx.db.transaction(async (tx) => {
          const result = await listUpcomingCharges(tx, {
            now: new Date(),
            timeZone: await practiceTimeZone(tx, ctx.config),
            days: request.query.days,
          });
          await writeAudit(tx, {
            ...auditContext(request),
            action: 'admin.plans_upcoming_listed',
            details: { days: request.query.days, linkIds: [...new Set(result.charges.map((c) => c.linkId))] },
          });
          return result;
        }),
    );

    route(
      scope,
      routeTable.settings,
      {
        preHandler: staff,
        schema: {
          tags,
          summary: 'Practice settings: effective values, env defaults and console overrides',
          security,
          response: errorResponses(401),
        },
      },
      // Fresh: the admin's screen shows what is stored, not this process's copy (decision 0225).
      async () => practiceSettings(ctx.db, ctx.config, { fresh: true }),
    );

    route(
      scope,
      routeTable.updateSettings,
      {
        preHandler: admin,
        schema: {
          tags,
          summary: 'Override practice settings (admins only; null = back to the env default; audited)',
          security,
          response: errorResponses(400, 401, 403),
        },
      },
      async (request) => {
        const after = await ctx.db.transaction((tx) =>
          updatePracticeSettings(tx, {
            config: ctx.config,
            actor: auditContext(request),
            userId: request.staff!.userId,
            changes: request.body,
          }),
        );
        // Again after the commit: a read between the change and its commit may have kept the old rows.
        forgetPracticeRows(ctx.db);
        return after;
      },
    );

    route(
      scope,
      routeTable.planTemplates,
      {
        preHandler: staff,
        schema: {
          tags,
          summary: "The practice's default payment plans, offered on the new-link form (every role)",
          description:
            'Shapes without money: one balance charge daysBeforeSurgery days before a surgery date, or count ' +
            "installments every week, two weeks or month from firstDueAfterDays after today. source 'default' = " +
            "Paylink's two examples (no list saved yet).",
          security,
          response: errorResponses(401),
        },
      },
      async () => loadPlanTemplates(ctx.db),
    );

    route(
      scope,
      routeTable.updatePlanTemplates,
      {
        preHandler: admin,
        schema: {
          tags,
          summary: "Replace the practice's default payment plans (admins only; at most 20; audited)",
          description:
            'The installment count follows the plan rules (2 to 24); days are 1 to 365; names are unique. An empty ' +
            'list offers none on the new-link form.',
          security,
          response: errorResponses(400, 401, 403),
        },
      },
      async (request) =>
        ctx.db.transaction((tx) =>
          savePlanTemplates(tx, { body: request.body, actor: auditContext(request), userId: request.staff!.userId }),
        ),
    );
  });
}
