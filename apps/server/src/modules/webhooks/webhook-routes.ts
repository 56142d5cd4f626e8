import {
  createWebhookBodySchema,
  listWebhookDeliveriesResultSchema,
  listWebhooksResultSchema,
  webhookDeliverySchema,
  webhookEndpointSchema,
  webhookEndpointWithSecretSchema,
} from '@paylink/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { auditContext, writeAudit } from '../../lib/audit.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { requireStaff } from '../admin/require-staff.js';
import { errorResponses } from '../../http/route-support.js';
import { newWebhookSecret } from './signature.js';

const STAFF_SECURITY = [{ bearer: [] }];
const idParams = z.object({ id: z.uuid('id must be a webhook id') }).strict();

interface EndpointRow {
  id: string;
  url: string;
  events: string[];
  secret: string;
  description: string;
  created_at: Date;
  secret_rotated_at: Date | null;
}
const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);
const toEndpoint = (r: EndpointRow) => ({
  id: r.id,
  url: r.url,
  events: r.events,
  description: r.description,
  createdAt: iso(r.created_at)!,
  secretRotatedAt: iso(r.secret_rotated_at),
});

/** Outbound webhooks (admins only): register, list, delete, rotate the secret, see deliveries, replay. */
export async function webhookRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const admin = requireStaff(ctx, { roles: ['admin'] });
  const tags = ['webhooks'];

  const live = async (id: string) => {
    const row = (
      await ctx.db.query<EndpointRow>('select * from webhook_endpoint where id = $1 and deleted_at is null', [id])
    ).rows[0];
    if (!row) throw notFound('No webhook endpoint with this id.');
    return row;
  };

  r.post(
    '/api/admin/webhooks',
    {
      preHandler: admin,
      schema: {
        tags,
        summary: 'Register a webhook endpoint; answers its signing secret once',
        description: 'HTTPS is required in production mode (http is allowed in sandbox mode for local receivers).',
        security: STAFF_SECURITY,
        body: createWebhookBodySchema,
        response: { 201: webhookEndpointWithSecretSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const url = new URL(request.body.url);
      if (url.protocol !== 'https:' && !(url.protocol === 'http:' && ctx.config.mode === 'sandbox')) {
        throw badRequest('The webhook URL must use https.', { url: 'must use https in production mode' });
      }
      if (url.username || url.password)
        throw badRequest('Put no credentials in the webhook URL.', { url: 'no user:password@' });
      const secret = newWebhookSecret();
      const row = await ctx.db.transaction(async (tx) => {
        const ins = await tx.query<EndpointRow>(
          `insert into webhook_endpoint (url, events, secret, description, created_by) values ($1, $2, $3, $4, $5)
           returning *`,
          [url.toString(), [...new Set(request.body.events)], secret, request.body.description, request.staff!.userId],
        );
        await writeAudit(tx, {
          ...auditContext(request),
          action: 'webhook.created',
          details: { webhookId: ins.rows[0]!.id, url: url.origin + url.pathname, events: request.body.events },
        });
        return ins.rows[0]!;
      });
      return reply.status(201).send({ ...toEndpoint(row), secret });
    },
  );

  r.get(
    '/api/admin/webhooks',
    {
      preHandler: admin,
      schema: {
        tags,
        summary: 'Webhook endpoints (without their secrets)',
        security: STAFF_SECURITY,
        response: { 200: listWebhooksResultSchema, ...errorResponses(401, 403) },
      },
    },
    async () => {
      const rows = await ctx.db.query<EndpointRow>(
        'select * from webhook_endpoint where deleted_at is null order by created_at',
      );
      return { webhooks: rows.rows.map(toEndpoint) };
    },
  );

  r.delete(
    '/api/admin/webhooks/:id',
    {
      preHandler: admin,
      schema: {
        tags,
        summary: 'Delete a webhook endpoint (pending deliveries to it stop)',
        security: STAFF_SECURITY,
        params: idParams,
        response: { 200: webhookEndpointSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const row = await live(request.params.id);
      await ctx.db.transaction(async (tx) => {
        await tx.query('update webhook_endpoint set deleted_at = now() where id = $1', [row.id]);
        await tx.query(
          `update webhook_delivery set status = 'failed', last_error = 'endpoint deleted'
           where endpoint_id = $1 and status = 'pending'`,
          [row.id],
        );
        await writeAudit(tx, { ...auditContext(request), action: 'webhook.deleted', details: { webhookId: row.id } });
      });
      return toEndpoint(row);
    },
  );

  r.post(
    '/api/admin/webhooks/:id/rotate-secret',
    {
      preHandler: admin,
      schema: {
        tags,
        summary: 'Replace the signing secret; answers the new one once (the old one stops at once)',
        security: STAFF_SECURITY,
        params: idParams,
        response: { 200: webhookEndpointWithSecretSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      await live(request.params.id);
      const secret = newWebhookSecret();
      const row = await ctx.db.transaction(async (tx) => {
        const u = await tx.query<EndpointRow>(
          'update webhook_endpoint set secret = $2, secret_rotated_at = now() where id = $1 returning *',
          [request.params.id, secret],
        );
        await writeAudit(tx, {
          ...auditContext(request),
          action: 'webhook.secret_rotated',
          details: { webhookId: request.params.id },
        });
        return u.rows[0]!;
      });
      return { ...toEndpoint(row), secret };
    },
  );

  const deliverySelect = `
    select d.*, ev.type as event_type,
      coalesce((select jsonb_agg(jsonb_build_object('at', a.at, 'statusCode', a.status_code, 'error', a.error,
        'durationMs', a.duration_ms) order by a.at, a.id) from webhook_attempt a where a.delivery_id = d.id), '[]'::jsonb)
        as attempt_list
    from webhook_delivery d join webhook_event ev on ev.id = d.event_id`;
  interface DeliveryRow {
    id: string;
    event_id: string;
    event_type: string;
    status: 'pending' | 'delivered' | 'failed';
    next_attempt_at: Date;
    created_at: Date;
    delivered_at: Date | null;
    replay_of: string | null;
    attempt_list: { at: string; statusCode: number | null; error: string | null; durationMs: number }[];
  }
  const toDelivery = (d: DeliveryRow) => ({
    id: d.id,
    eventId: d.event_id,
    eventType: d.event_type,
    status: d.status,
    attempts: d.attempt_list.map((a) => ({ ...a, at: new Date(a.at).toISOString() })),
    nextAttemptAt: d.status === 'pending' ? iso(d.next_attempt_at) : null,
    createdAt: iso(d.created_at)!,
    deliveredAt: iso(d.delivered_at),
    replayOf: d.replay_of,
  });

  r.get(
    '/api/admin/webhooks/:id/deliveries',
    {
      preHandler: admin,
      schema: {
        tags,
        summary: 'The latest deliveries to an endpoint, newest first, each attempt with its status code and time',
        security: STAFF_SECURITY,
        params: idParams,
        querystring: z.object({ limit: z.coerce.number().int().min(1).max(500).optional().default(100) }).strict(),
        response: { 200: listWebhookDeliveriesResultSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const ep = await ctx.db.query('select 1 from webhook_endpoint where id = $1', [request.params.id]);
      if (ep.rowCount === 0) throw notFound('No webhook endpoint with this id.');
      const rows = await ctx.db.query<DeliveryRow>(
        `${deliverySelect} where d.endpoint_id = $1 order by d.created_at desc, d.id limit $2`,
        [request.params.id, request.query.limit],
      );
      return { deliveries: rows.rows.map(toDelivery) };
    },
  );

  r.post(
    '/api/admin/webhooks/deliveries/:id/replay',
    {
      preHandler: admin,
      schema: {
        tags,
        summary: 'Send a delivery’s event again (a new delivery with the same event id and body)',
        security: STAFF_SECURITY,
        params: idParams,
        response: { 201: webhookDeliverySchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const row = await ctx.db.transaction(async (tx) => {
        const d = (
          await tx.query<{ event_id: string; endpoint_id: string; deleted_at: Date | null }>(
            `select d.event_id, d.endpoint_id, e.deleted_at from webhook_delivery d
             join webhook_endpoint e on e.id = d.endpoint_id where d.id = $1`,
            [request.params.id],
          )
        ).rows[0];
        if (!d) throw notFound('No webhook delivery with this id.');
        if (d.deleted_at) throw badRequest('The endpoint of this delivery was deleted.');
        const ins = await tx.query<{ id: string }>(
          `insert into webhook_delivery (event_id, endpoint_id, replay_of) values ($1, $2, $3) returning id`,
          [d.event_id, d.endpoint_id, request.params.id],
        );
        await writeAudit(tx, {
          ...auditContext(request),
          action: 'webhook.replayed',
          details: { deliveryId: request.params.id, newDeliveryId: ins.rows[0]!.id, eventId: d.event_id },
        });
        return (await tx.query<DeliveryRow>(`${deliverySelect} where d.id = $1`, [ins.rows[0]!.id])).rows[0]!;
      });
      return reply.status(201).send(toDelivery(row));
    },
  );
}
