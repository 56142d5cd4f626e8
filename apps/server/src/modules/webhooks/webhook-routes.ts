import { consoleRoutes } from '@paylink/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { auditContext } from '../../lib/audit.js';
import { requireStaff } from '../../http/require-staff.js';
import { errorResponses } from '../../http/route-support.js';
import { route } from '../../http/route.js';
import { deleteWebhook } from './delete-webhook.js';
import { listWebhookDeliveries } from './list-webhook-deliveries.js';
import { registerWebhook } from './register-webhook.js';
import { replayWebhookDelivery } from './replay-webhook-delivery.js';
import { rotateWebhookSecret } from './rotate-webhook-secret.js';
import { listLiveEndpoints, toEndpoint } from './webhook-queries.js';

const STAFF_SECURITY = [{ bearer: [] }];

/** Outbound webhooks (admins only): register, list, delete, rotate the secret, see deliveries, replay. */
export async function webhookRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const admin = requireStaff(ctx, { roles: ['admin'] });
  const tags = ['webhooks'];

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
      const created = await registerWebhook({
        db: ctx.db,
        config: ctx.config,
        actor: auditContext(request),
        staffUserId: request.staff!.userId,
        url: request.body.url,
        events: request.body.events,
        description: request.body.description,
      });
      return reply.status(201).send(created);
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
    async () => ({ webhooks: (await listLiveEndpoints(ctx.db)).map(toEndpoint) }),
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
    async (request) => deleteWebhook({ db: ctx.db, actor: auditContext(request), id: request.params.id }),
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
    async (request) => rotateWebhookSecret({ db: ctx.db, actor: auditContext(request), id: request.params.id }),
  );

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
    async (request) => listWebhookDeliveries({ db: ctx.db, endpointId: request.params.id, limit: request.query.limit }),
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
      const delivery = await replayWebhookDelivery({
        db: ctx.db,
        actor: auditContext(request),
        deliveryId: request.params.id,
      });
      return reply.status(201).send(delivery);
    },
  );
}
