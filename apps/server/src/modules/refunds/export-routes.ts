import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { auditContext } from '../../lib/audit.js';
import { requireStaff } from '../../http/require-staff.js';
import { errorResponses } from '../../http/route-support.js';
import { EXPORTS, exportCsv } from './export-csv.js';

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'use YYYY-MM-DD');
const rangeSchema = z.object({ from: day, to: day }).strict();

/** CSV exports for bookkeeping: GET /api/admin/exports/{payments,refunds,links}.csv?from=YYYY-MM-DD&to=YYYY-MM-DD. */
export async function exportRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  for (const ex of EXPORTS) {
    r.get(
      `/api/admin/exports/${ex.name}.csv`,
      {
        preHandler: requireStaff(ctx, { roles: ['admin', 'billing'] }),
        schema: {
          tags: ['money'],
          summary: `CSV: ${ex.summary}`,
          security: [{ bearer: [] }],
          querystring: rangeSchema,
          response: { 200: z.any().describe('text/csv'), ...errorResponses(400, 401, 403) },
        },
      },
      async (request, reply) => {
        const { csv, fileName } = await exportCsv({
          db: ctx.db,
          actor: auditContext(request),
          name: ex.name,
          from: request.query.from,
          to: request.query.to,
        });
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${fileName}"`)
          .header('cache-control', 'no-store')
          .send(csv);
      },
    );
  }
}
