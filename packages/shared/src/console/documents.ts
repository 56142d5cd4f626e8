import { z } from 'zod';

const sha256OrNull = z.string().nullable();
/** A document of a link as staff see it (GET /api/admin/links/:id/documents). */
export const linkDocumentSchema = z.object({
  submissionId: z.string(),
  kind: z.enum(['invoice', 'contract', 'patient_id', 'payor_id', 'payment_authorization']),
  status: z.enum(['pending', 'completed']),
  linkStepId: z.number().nullable(),
  routePath: z.string().nullable(),
  signerName: z.string().nullable(),
  signatureMethod: z.enum(['draw', 'type', 'upload']).nullable(),
  completedAt: z.string().nullable(),
  ip: z.string().nullable(),
  originalSha256: sha256OrNull,
  signedSha256: sha256OrNull,
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
export type LinkDocument = z.infer<typeof linkDocumentSchema>;
export const linkDocumentListSchema = z.array(linkDocumentSchema);
