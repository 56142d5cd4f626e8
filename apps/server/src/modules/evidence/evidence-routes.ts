import { consoleRoutes } from '@paylink/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { auditContext } from '../../lib/audit.js';
import { requireStaff } from '../../http/require-staff.js';
import { route } from '../../http/route.js';
import { errorResponses } from '../../http/route-support.js';
import { buildEvidencePack } from './build-evidence-pack.js';

/** GET /api/admin/links/:id/evidence.pdf — the dispute evidence pack (billing and admin). */
export async function evidenceRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  route(
    app,
    consoleRoutes.evidencePack,
    {
      preHandler: requireStaff(ctx, { roles: ['admin', 'billing'] }),
      schema: {
        tags: ['money'],
        summary: 'Dispute evidence pack of a paid link (PDF)',
        description:
          'Payment with AVS, CVV2 and 3-D Secure results, the acceptance of the non-refundable terms, ID documents ' +
          'on file, the audit timeline and the signed contract and invoice, each with its SHA-256. lang = en or es.',
        security: [{ bearer: [] }],
        response: errorResponses(400, 401, 403, 404, 409),
      },
    },
    async (request, reply) => {
      const pack = await buildEvidencePack(ctx, {
        linkId: request.params.id,
        actor: auditContext(request),
        lang: request.query.lang,
      });
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="${pack.fileName}"`)
        .header('cache-control', 'no-store')
        .send(Buffer.from(pack.bytes));
    },
  );
}
