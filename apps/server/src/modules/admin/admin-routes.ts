import {
  adminLinkParamsSchema,
  createLinkBodySchema,
  createLinkResultSchema,
  createStaffBodySchema,
  extendLinkWithReasonBodySchema,
  linkActionBodySchema,
  linkDetailSchema,
  linkSummarySchema,
  listLinksQuerySchema,
  listLinksResultSchema,
  listPaymentsQuerySchema,
  listPaymentsResultSchema,
  loginBodySchema,
  loginResultSchema,
  staffListSchema,
  staffUserSchema,
  throttledErrorSchema,
} from '@paylink/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';
import { auditContext } from '../../lib/audit.js';
import { createLink } from '../links/create-link.js';
import { allowEmptyJsonBodies, errorResponses } from '../../http/route-support.js';
import { changeLink } from './change-link.js';
import { createStaffUser } from './create-staff-user.js';
import { listLinks } from './list-links.js';
import { listPayments } from './list-payments.js';
import { loginStaff } from './login-staff.js';
import { ROLES, requireStaff } from './require-staff.js';
import { listStaff } from '../console/staff-admin.js';
import { toStaffUser, type StaffUserRow } from './staff-queries.js';
import { showLink } from './show-link.js';

/** Staff tokens travel as `Authorization: Bearer plk_...` (the same HTTP scheme as patient sessions). */
const STAFF_SECURITY: { [k: string]: string[] }[] = [{ bearer: [] }, { staffCookie: [] }];

/** The coordinator API: staff sign-in, links (create, list, show, cancel, expire, extend) and payments. */
export async function adminRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(async (scope) => {
    allowEmptyJsonBodies(scope);
    const r = scope.withTypeProvider<ZodTypeProvider>();
    const staff = requireStaff(ctx);
    const admin = requireStaff(ctx, { roles: ROLES.admin });
    const linkManager = requireStaff(ctx, { roles: ROLES.manageLinks });
    const tags = ['admin'];
    const { publicUrl } = ctx.config;

    r.post(
      '/api/admin/login',
      {
        schema: {
          tags,
          summary: 'Staff sign-in for the CLI: e-mail + password (+ code) → a 12-hour staff token',
          description:
            'With two-factor on, send `code` (else 401 code_required). Failed tries slow the next one down ' +
            '(429 with Retry-After); an account is never locked. The console signs in with POST /api/admin/session.',
          security: [],
          body: loginBodySchema,
          response: { 200: loginResultSchema, 429: throttledErrorSchema, ...errorResponses(400, 401, 403) },
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

    r.get(
      '/api/admin/me',
      {
        preHandler: staff,
        schema: {
          tags,
          summary: 'The staff user behind the token',
          security: STAFF_SECURITY,
          response: { 200: staffUserSchema, ...errorResponses(401) },
        },
      },
      async (request) => {
        const row = await ctx.db.query<StaffUserRow>('select * from staff_user where id = $1', [request.staff!.userId]);
        return toStaffUser(row.rows[0]!);
      },
    );

    r.get(
      '/api/admin/staff',
      {
        preHandler: admin,
        schema: {
          tags,
          summary: 'Staff users with role, state, last sign-in and two-factor (admins only)',
          security: STAFF_SECURITY,
          response: { 200: staffListSchema, ...errorResponses(401, 403) },
        },
      },
      async () => ({ staff: await listStaff(ctx.db) }),
    );

    r.post(
      '/api/admin/staff',
      {
        preHandler: admin,
        schema: {
          tags,
          summary: 'Create a staff user (admins only); the password is stored as an scrypt hash',
          security: STAFF_SECURITY,
          body: createStaffBodySchema,
          response: { 201: staffUserSchema, ...errorResponses(400, 401, 403, 409) },
        },
      },
      async (request, reply) => {
        const user = await ctx.db.transaction((tx) =>
          createStaffUser({ tx, actor: auditContext(request), ...request.body }),
        );
        return reply.status(201).send(user);
      },
    );

    r.post(
      '/api/admin/links',
      {
        preHandler: linkManager,
        schema: {
          tags,
          summary: 'Create a patient link',
          description:
            'Answers the id and the personal link `<PUBLIC_URL>/auth?id=<id>`. signInMethod defaults to sms when a ' +
            'phone is given, else email; expiresIn like 14d, 36h or 90m (default LINK_DEFAULT_EXPIRY_DAYS).',
          security: STAFF_SECURITY,
          body: createLinkBodySchema,
          response: { 201: createLinkResultSchema, ...errorResponses(400, 401, 403) },
        },
      },
      async (request, reply) => {
        const { link, url } = await ctx.db.transaction((tx) =>
          createLink({
            tx,
            actor: auditContext(request),
            publicUrl,
            input: request.body,
            defaultExpiryDays: ctx.config.LINK_DEFAULT_EXPIRY_DAYS,
            createdBy: request.staff!.userId,
          }),
        );
        return reply.status(201).send({ id: link.id, url, expiresAt: new Date(link.expires_at).toISOString() });
      },
    );

    r.get(
      '/api/admin/links',
      {
        preHandler: staff,
        schema: {
          tags,
          summary: 'List links, newest first, with step progress',
          description:
            'status filters by the derived state: active, expired (active and past expiresAt), cancelled, completed.',
          security: STAFF_SECURITY,
          querystring: listLinksQuerySchema,
          response: { 200: listLinksResultSchema, ...errorResponses(400, 401) },
        },
      },
      async (request) => listLinks({ db: ctx.db, actor: auditContext(request), publicUrl, ...request.query }),
    );

    r.get(
      '/api/admin/links/:id',
      {
        preHandler: staff,
        schema: {
          tags,
          summary: 'One link with its steps, payment and audit timeline',
          security: STAFF_SECURITY,
          params: adminLinkParamsSchema,
          response: { 200: linkDetailSchema, ...errorResponses(400, 401, 404) },
        },
      },
      async (request) => showLink({ db: ctx.db, actor: auditContext(request), publicUrl, id: request.params.id }),
    );

    const change = (path: string, summary: string, kind: 'cancel' | 'expire') =>
      r.post(
        path,
        {
          preHandler: linkManager,
          schema: {
            tags,
            summary,
            security: STAFF_SECURITY,
            params: adminLinkParamsSchema,
            body: linkActionBodySchema,
            response: { 200: linkSummarySchema, ...errorResponses(400, 401, 403, 404, 409) },
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
    change('/api/admin/links/:id/cancel', 'Cancel a link (revokes its patient sessions)', 'cancel');
    change('/api/admin/links/:id/expire', 'Expire a link now', 'expire');

    r.post(
      '/api/admin/links/:id/extend',
      {
        preHandler: linkManager,
        schema: {
          tags,
          summary: 'Extend a link: expiresAt = max(expiresAt, now) + days (also revives an expired link)',
          security: STAFF_SECURITY,
          params: adminLinkParamsSchema,
          body: extendLinkWithReasonBodySchema,
          response: { 200: linkSummarySchema, ...errorResponses(400, 401, 403, 404, 409) },
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

    r.get(
      '/api/admin/payments',
      {
        preHandler: staff,
        schema: {
          tags,
          summary: 'List payments (chosen and approved), newest first; amounts in US dollars',
          security: STAFF_SECURITY,
          querystring: listPaymentsQuerySchema,
          response: { 200: listPaymentsResultSchema, ...errorResponses(400, 401) },
        },
      },
      async (request) => listPayments({ db: ctx.db, actor: auditContext(request), ...request.query }),
    );
  });
}
