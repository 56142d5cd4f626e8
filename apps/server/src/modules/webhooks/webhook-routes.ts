import { consoleRoutes } from '@paylink/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import type { Row } from '../../db/typed.js';
import { auditContext, writeAudit } from '../../lib/audit.js';
import { checkWebhookUrl, webhookPolicy } from './destination.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { requireStaff } from '../../http/require-staff.js';
import { errorResponses } from '../../http/route-support.js';
import { newWebhookSecret } from './signature.js';
import { route } from '../../http/route.js';

const STAFF_SECURITY = [{ bearer: [] }];

type EndpointRow = Pick<
  Row<'webhook_endpoint'>,
  'id' | 'url' | 'events' | 'secret' | 'description' | 'created_at' | 'secret_rotated_at'
>;
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
  const admin = requireStaff(ctx, { roles: ['admin'] });
  const tags = ['webhooks'];

  const live = async (id: string) => {
    const row = (
      await ctx.db.query<EndpointRow>('select * from webhook_endpoint where id = $1 and deleted_at is null', [id])
    ).rows[0];
    if (!row) throw notFound('No webhook endpoint with this id.');
    return row;
  };

  route(
    app,
    consoleRoutes.createWebhook,
    {
      preHandler: admin,
      schema: {
        tags,
        summary: 'Register a webhook endpoint; answers its signing secret once',
        description:
          'HTTPS is required in production mode (http is allowed in sandbox mode for local receivers). Internal ' +
          'addresses (loopback, private, link-local, metadata) are refused unless WEBHOOK_ALLOW_PRIVATE lists them; ' +
          'the sandbox allows loopback.',
        security: STAFF_SECURITY,
        response: errorResponses(400, 401, 403),
      },
    },
    async (request, reply) => {
      const url = new URL(request.body.url);
      if (url.protocol !== 'https:' && !(url.protocol === 'http:' && ctx.config.mode === 'sandbox')) {
        throw badRequest('The webhook URL must use https.', { url: 'must use https in production mode' });
      }
      if (url.username || url.password)
        throw badRequest('Put no credentials in the webhook URL.', { url: 'no user:password@' });
      const refused = await checkWebhookUrl(url.toString(), webhookPolicy(ctx.config));
      if (refused) {
        throw badRequest(
          `Webhooks go to public addresses only: ${refused}. An admin can allow a range with WEBHOOK_ALLOW_PRIVATE.`,
          { url: 'must not point at an internal address' },
        );
      }
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

  route(
    app,
    consoleRoutes.webhooks,
    {
      preHandler: admin,
      schema: {
        tags,
        summary: 'Webhook endpoints (without their secrets)',
        security: STAFF_SECURITY,
        response: errorResponses(401, 403),
      },
    },
    async () => {
      const rows = await ctx.db.query<EndpointRow>(
        'select * from webhook_endpoint where deleted_at is null order by created_at',
      );
      return { webhooks: rows.rows.map(toEndpoint) };
    },
  );

  route(
    app,
    consoleRoutes.deleteWebhook,
    {
      preHandler: admin,
      schema: {
        tags,
        summary: 'Delete a webhook endpoint (pending deliveries to it stop)',
        security: STAFF_SECURITY,
        response: errorResponses(400, 401, 403, 404),
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

  route(
    app,
    consoleRoutes.rotateWebhookSecret,
    {
      preHandler: admin,
      schema: {
        tags,
        summary: 'Replace the signing secret; answers the new one once (the old one stops at once)',
        security: STAFF_SECURITY,
        response: errorResponses(400, 401, 403, 404),
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
  type DeliveryRow = Row<'webhook_delivery'> & {
    event_type: string;
    attempt_list: { at: string; statusCode: number | null; error: string | null; durationMs: number }[];
  };
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

  route(
    app,
    consoleRoutes.webhookDeliveries,
    {
      preHandler: admin,
      schema: {
        tags,
        summary: 'The latest deliveries to an endpoint, newest first, each attempt with its status code and time',
        security: STAFF_SECURITY,
        response: errorResponses(400, 401, 403, 404),
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

  route(
    app,
    consoleRoutes.replayWebhookDelivery,
    {
      preHandler: admin,
      schema: {
        tags,
        summary: 'Send a delivery’s event again (a new delivery with the same event id and body)',
        security: STAFF_SECURITY,
        response: errorResponses(400, 401, 403, 404, 409),
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
