import { patientRoutes } from '@paylink/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { route } from '../../http/route.js';
import { badRequest } from '../../lib/errors.js';
import { recordVitals } from './record-vital.js';

/**
 * POST /api/vitals (x-api-key): web-vitals metrics from a patient's browser, stored per route: one metric, or a page's
 * metrics in one request (issue 30; one statement either way).
 */
export async function vitalsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  route(
    app,
    patientRoutes.vitals,
    {
      schema: {
        tags: ['web app'],
        security: [{ apiKey: [] }],
        summary:
          'Record real-user performance metrics (CLS, FCP, INP, LCP, TTFB) for a route: one, or an array of them',
      },
    },
    async (request, reply) => {
      const metrics = Array.isArray(request.body) ? request.body : [request.body];
      const stored = await recordVitals(ctx.db, metrics, { maxRows: ctx.config.VITALS_MAX_ROWS });
      if (!stored) throw badRequest('route must be a path of this app, like /auth', { route: 'is not a path' });
      return reply.status(204).send();
    },
  );
}
