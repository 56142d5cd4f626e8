import type { Queryable } from '../../db/client.js';
import { newToken } from '../../lib/ids.js';
import type { DocumentStorage } from '../../providers/storage/types.js';
import { findSubmission, insertSubmission, sha256Hex } from './submission-queries.js';
import type { SigningProvider } from './types.js';

/**
 * The signing service that ships with Paylink: submissions live in our database, the pages are served by the side
 * server on SIGN_ORIGIN (sign-server.ts), signed PDFs go to the document storage.
 */
export function builtinSigningProvider(opts: { signOrigin: string; storage?: DocumentStorage }): SigningProvider {
  return {
    name: 'builtin',
    origin: opts.signOrigin,
    async createSubmission(tx, input) {
      // 256 random bits; only the hash is stored, the URL goes to the step (and so to the signed-in patient).
      const token = newToken(32);
      const submissionId = await insertSubmission(tx, {
        tokenHash: sha256Hex(token),
        linkId: input.linkId,
        linkStepId: input.linkStepId,
        kind: input.kind,
        contractSnapshot: input.contractSnapshot,
      });
      return { submissionId, documentUrl: `${opts.signOrigin}/s/${token}` };
    },
    async isCompleted(tx: Queryable, submissionId: string) {
      const s = await findSubmission(tx, submissionId);
      return s?.status === 'completed';
    },
    async signedPdf(tx: Queryable, submissionId: string) {
      const s = await findSubmission(tx, submissionId);
      if (!s || s.status !== 'completed' || !s.signed_storage_key || !opts.storage) return null;
      return opts.storage.get(s.signed_storage_key);
    },
  };
}
