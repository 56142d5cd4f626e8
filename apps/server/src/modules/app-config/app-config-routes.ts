import { patientRoutes } from '@paylink/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { route } from '../../http/route.js';
import { getAppConfig } from './get-app-config.js';

/** GET /api/config (x-api-key): the web app's installation config (CONTRACTS.md). */
export async function appConfigRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  route(
    app,
    patientRoutes.config,
    {
      schema: {
        tags: ['web app'],
        security: [{ apiKey: [] }],
        summary: "The practice's branding, the signing and gateway origins, and the captcha site key",
      },
    },
    async (_request, reply) => {
      // Short cache: a branding change shows within a minute, and repeat page loads skip a round trip.
      reply.header('cache-control', 'private, max-age=60');
      return getAppConfig(ctx);
    },
  );
}
