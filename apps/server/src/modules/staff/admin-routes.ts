import { throttledErrorSchema, consoleRoutes } from '@paylink/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { auditContext } from '../../lib/audit.js';
import { practiceTimeZone } from '../app-config/index.js';
import { createLink } from '../links/index.js';
import { createPlan } from '../plans/index.js';
import { sendLink } from '../messaging/index.js';
import { allowEmptyJsonBodies, errorResponses } from '../../http/route-support.js';
import { changeLink } from './change-link.js';
import { createStaffUser } from './create-staff-user.js';
import { listLinks } from './list-links.js';
import { listPayments } from './list-payments.js';
import { loginStaff } from './login-staff.js';
import { ROLES, requireStaff } from '../../http/require-staff.js';
import { listStaff } from './staff-admin.js';
import { findStaffById, toStaffUser } from './staff-queries.js';
import { showLink } from './show-link.js';
import { route } from '../../http/route.js';

/** Staff tokens travel as `Authorization: Bearer plk_...` (the same HTTP scheme as patient sessions). */
const STAFF_SECURITY: { [k: string]: string[] }[] = [{ bearer: [] }, { staffCookie: [] }];

/** The coordinator API: staff sign-in, links (create, list, show, cancel, expire, extend) and payments. */
export async function adminRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(async (scope) => {
    allowEmptyJsonBodies(scope);
    const staff = requireStaff(ctx);
    const admin = requireStaff(ctx, { roles: ROLES.admin });
    const linkManager = requireStaff(ctx, { roles: ROLES.manageLinks });
    const tags = ['admin'];
    const { publicUrl } = ctx.config;

    route(
      scope,
      consoleRoutes.login,
      {
        schema: {
          tags,
          summary: 'Staff sign-in for the CLI: e-mail + password (+ code) → a 12-hour staff token',
          description:
            'With two-factor on, send `code` (else 401 code_required). Failed tries slow the next one down ' +
            '(429 with Retry-After); an account is never locked. The console signs in with POST /api/admin/session.',
          security: [],
          response: { 429: throttledErrorSchema, ...errorResponses(400, 401, 403) },
        },
      },
      async (request) =>
        loginStaff({
          db: ctx.db,
          config: ctx.config,
          actor: auditContext(request),
          email: request.body.email,
          password: request.body.password,
          code: request.body.code,
          ip: request.ip,
        }),
    );

    route(
      scope,
      consoleRoutes.me,
      {
        preHandler: staff,
        schema: {
          tags,
          summary: 'The staff user behind the token',
          security: STAFF_SECURITY,
          response: errorResponses(401),
        },
      },
      async (request) => toStaffUser((await findStaffById(ctx.db, request.staff!.userId))!),
    );

    route(
      scope,
      consoleRoutes.staff,
      {
        preHandler: admin,
        schema: {
          tags,
          summary: 'Staff users with role, state, last sign-in and two-factor (admins only)',
          security: STAFF_SECURITY,
          response: errorResponses(401, 403),
        },
      },
      async () => ({ staff: await listStaff(ctx.db) }),
    );

    route(
      scope,
      consoleRoutes.createStaff,
      {
        preHandler: admin,
        schema: {
          tags,
          summary: 'Create a staff user (admins only); the password is stored as an scrypt hash',
          security: STAFF_SECURITY,
          response: errorResponses(400, 401, 403, 409),
        },
      },
      async (request, reply) => {
        const user = await ctx.db.transaction((tx) =>
          createStaffUser({ tx, actor: auditContext(request), ...request.body }),
        );
        return reply.status(201).send(user);
      },
    );

    route(
      scope,
      consoleRoutes.createLink,
      {
        preHandler: linkManager,
        schema: {
          tags,
          summary: 'Create a patient link',
          description:
            'Answers the id and the personal link `<PUBLIC_URL>/auth?id=<id>`. signInMethod defaults to sms when a ' +
            'phone is given, else email; expiresIn like 14d, 36h or 90m (default LINK_DEFAULT_EXPIRY_DAYS). ' +
            '`plan` (optional) adds a payment plan: the total (dollars, more than the smallest first payment of the ' +
            'link and at most $20,000) and the balance as one charge on `dueOn` or `count` installments every week, ' +
            'two_weeks or month from `firstDueOn`; dates are after today in the practice time zone. The installments ' +
            'are stored when the deposit is approved (docs/plans.md).',
          security: STAFF_SECURITY,
          response: errorResponses(400, 401, 403),
        },
      },
      async (request, reply) => {
        const { link, url, message } = await ctx.db.transaction(async (tx) => {
          const { send, plan, ...input } = request.body;
          const created = await createLink({
            tx,
            actor: auditContext(request),
            publicUrl,
            input,
            defaultExpiryDays: ctx.config.LINK_DEFAULT_EXPIRY_DAYS,
            createdBy: request.staff!.userId,
          });
          // A refused plan (a date not after the practice's today) throws 400 and rolls the link back.
          if (plan) {
            await createPlan({
              tx,
              actor: auditContext(request),
              linkId: created.link.id,
              locked: created.link.is_payment_link_locked,
              input: plan,
              timeZone: await practiceTimeZone(tx, ctx.config),
              createdBy: request.staff!.userId,
            });
          }
          // `send`: the link goes out in the same transaction (issue 14); a refusal creates nothing.
          const message = send
            ? await sendLink({
                tx,
                config: ctx.config,
                actor: auditContext(request),
                linkId: created.link.id,
                channel: send,
                senderId: request.staff!.userId,
              })
            : undefined;
          return { ...created, message };
        });
        return reply.status(201).send({
          id: link.id,
          url,
          expiresAt: new Date(link.expires_at).toISOString(),
          ...(message ? { message } : {}),
        });
      },
    );

    route(
      scope,
      consoleRoutes.links,
      {
        preHandler: staff,
        schema: {
          tags,
          summary: 'List links, newest first, with step progress',
          description:
            'status filters by the derived state: active, expired (active and past expiresAt), cancelled, completed.',
          security: STAFF_SECURITY,
          response: errorResponses(400, 401),
        },
      },
      async (request) => listLinks({ db: ctx.db, actor: auditContext(request), publicUrl, ...request.query }),
    );

    route(
      scope,
      consoleRoutes.link,
      {
        preHandler: staff,
        schema: {
          tags,
          summary: 'One link with its steps, payment, plan and audit timeline',
          security: STAFF_SECURITY,
          response: errorResponses(400, 401, 404),
        },
      },
      async (request) => showLink({ db: ctx.db, actor: auditContext(request), publicUrl, id: request.params.id }),
    );

    const change = (
      def: typeof consoleRoutes.cancelLink | typeof consoleRoutes.expireLink,
      summary: string,
      kind: 'cancel' | 'expire',
    ) =>
      route(
        scope,
        def,
        {
          preHandler: linkManager,
          schema: {
            tags,
            summary,
            security: STAFF_SECURITY,
            response: errorResponses(400, 401, 403, 404, 409),
          },
        },
        async (request) =>
          changeLink({
            db: ctx.db,
            actor: auditContext(request),
            publicUrl,
            id: request.params.id,
            change: { kind, reason: request.body?.reason },
          }),
      );
    change(consoleRoutes.cancelLink, 'Cancel a link (revokes its patient sessions)', 'cancel');
    change(consoleRoutes.expireLink, 'Expire a link now', 'expire');

    route(
      scope,
      consoleRoutes.extendLink,
      {
        preHandler: linkManager,
        schema: {
          tags,
          summary: 'Extend a link: expiresAt = max(expiresAt, now) + days (also revives an expired link)',
          security: STAFF_SECURITY,
          response: errorResponses(400, 401, 403, 404, 409),
        },
      },
      async (request) =>
        changeLink({
          db: ctx.db,
          actor: auditContext(request),
          publicUrl,
          id: request.params.id,
          change: { kind: 'extend', days: request.body.days, reason: request.body.reason },
        }),
    );

    route(
      scope,
      consoleRoutes.payments,
      {
        preHandler: staff,
        schema: {
          tags,
          summary: 'List payments (chosen and approved), newest first; amounts in US dollars',
          security: STAFF_SECURITY,
          response: errorResponses(400, 401),
        },
      },
      async (request) => listPayments({ db: ctx.db, actor: auditContext(request), ...request.query }),
    );
  });
}
