import { consoleRoutes, type LinkDocument } from '@paylink/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { auditContext } from '../../lib/audit.js';
import { requireStaff } from '../../http/require-staff.js';
import { errorResponses } from '../../http/route-support.js';
import { listLinkDocuments, readSignedDocument } from './list-link-documents.js';
import { route } from '../../http/route.js';

/** Staff access to signed documents: list a link's documents, download a signed PDF (admin API; staff token). */
export async function documentAdminRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const staff = requireStaff(ctx);
  const tags = ['admin'];
  const security = [{ bearer: [] }];

  route(
    app,
    consoleRoutes.linkDocuments,
    {
      preHandler: staff,
      schema: {
        tags,
        summary: "A link's documents: status, signer, hashes, uploaded ID files",
        security,
        response: errorResponses(401, 404),
      },
    },
    async (request) => {
      const docs = await listLinkDocuments(ctx, { linkId: request.params.id, actor: auditContext(request) });
      return docs.map((d) => ({
        ...d,
        kind: d.kind as LinkDocument['kind'],
        signatureMethod: d.signatureMethod as LinkDocument['signatureMethod'],
        files: d.files.map((f) => ({ ...f, side: f.side as 'front' | 'back' })),
        pdfUrl: d.status === 'completed' ? `/api/admin/documents/${d.submissionId}/pdf` : null,
      }));
    },
  );

  route(
    app,
    consoleRoutes.documentPdf,
    {
      preHandler: staff,
      schema: {
        tags,
        summary: 'The signed PDF of a document (with its signature and audit pages)',
        security,
        response: errorResponses(401, 404),
      },
    },
    async (request, reply) => {
      const doc = await readSignedDocument(ctx, {
        submissionId: request.params.submissionId,
        actor: auditContext(request),
      });
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="${doc.fileName}"`)
        .header('cache-control', 'no-store')
        .send(doc.bytes);
    },
  );
}
