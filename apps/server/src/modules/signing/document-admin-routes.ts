import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { auditContext } from '../../lib/audit.js';
import { requireStaff } from '../admin/require-staff.js';
import { errorResponses } from '../../http/route-support.js';
import { listLinkDocuments, readSignedDocument } from './list-link-documents.js';

const sha = z.string().nullable();
const linkDocumentSchema = z.object({
  submissionId: z.string(),
  kind: z.enum(['invoice', 'contract', 'patient_id', 'payor_id', 'payment_authorization']),
  status: z.enum(['pending', 'completed']),
  linkStepId: z.number().nullable(),
  routePath: z.string().nullable(),
  signerName: z.string().nullable(),
  signatureMethod: z.enum(['draw', 'type', 'upload']).nullable(),
  completedAt: z.string().nullable(),
  ip: z.string().nullable(),
  originalSha256: sha,
  signedSha256: sha,
  /** Present when signed: GET it with the same staff token. */
  pdfUrl: z.string().nullable(),
  files: z.array(
    z.object({
      id: z.string(),
      side: z.enum(['front', 'back']),
      mime: z.string(),
      originalMime: z.string(),
      size: z.number(),
      sha256: z.string(),
    }),
  ),
});

/** Staff access to signed documents: list a link's documents, download a signed PDF (admin API; staff token). */
export async function documentAdminRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const staff = requireStaff(ctx);
  const tags = ['admin'];
  const security = [{ bearer: [] }];

  r.get(
    '/api/admin/links/:id/documents',
    {
      preHandler: staff,
      schema: {
        tags,
        summary: "A link's documents: status, signer, hashes, uploaded ID files",
        security,
        params: z.object({ id: z.string().max(64) }),
        response: { 200: z.array(linkDocumentSchema), ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const docs = await listLinkDocuments(ctx, { linkId: request.params.id, actor: auditContext(request) });
      return docs.map((d) => ({
        ...d,
        kind: d.kind as z.infer<typeof linkDocumentSchema>['kind'],
        signatureMethod: d.signatureMethod as z.infer<typeof linkDocumentSchema>['signatureMethod'],
        files: d.files.map((f) => ({ ...f, side: f.side as 'front' | 'back' })),
        pdfUrl: d.status === 'completed' ? `/api/admin/documents/${d.submissionId}/pdf` : null,
      }));
    },
  );

  r.get(
    '/api/admin/documents/:submissionId/pdf',
    {
      preHandler: staff,
      schema: {
        tags,
        summary: 'The signed PDF of a document (with its signature and audit pages)',
        security,
        params: z.object({ submissionId: z.string().max(64) }),
        response: { 200: z.any().describe('application/pdf'), ...errorResponses(401, 404) },
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
