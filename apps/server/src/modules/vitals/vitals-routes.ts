import { patientRoutes } from '@paylink/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { route } from '../../http/route.js';
import { badRequest } from '../../lib/errors.js';
import { recordVital } from './record-vital.js';

/** POST /api/vitals (x-api-key): one web-vitals metric from a patient's browser, stored per route. */
export async function vitalsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  route(
    app,
    patientRoutes.vitals,
    {
      schema: {
        tags: ['web app'],
        security: [{ apiKey: [] }],
        summary: 'Record a real-user performance metric (CLS, FCP, INP, LCP, TTFB) for a route',
      },
    },
    async (request, reply) => {
      const stored = await recordVital(ctx.db, request.body, { maxRows: ctx.config.VITALS_MAX_ROWS });
      if (!stored) throw badRequest('route must be a path of this app, like /auth', { route: 'is not a path' });
      return reply.status(204).send();
    },
  );
}
