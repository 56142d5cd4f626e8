import type { Queryable } from '../../db/client.js';
import { newToken } from '../../lib/ids.js';
import type { DocumentStorage } from '../../providers/storage/types.js';
import { findSubmission, insertSubmission, sha256Hex } from './submission-queries.js';
import type { SigningProvider } from './types.js';

/**
 * A new submission's token: 256 random bits; only the hash is stored, the URL goes to the step (and so to the
 * signed-in patient).
 */
export function newSubmissionToken(signOrigin: string): { tokenHash: string; documentUrl: string } {
  const token = newToken(32);
  return { tokenHash: sha256Hex(token), documentUrl: `${signOrigin}/s/${token}` };
}

/**
 * The signing service that ships with Paylink: submissions live in our database, the pages are served by the side
 * server on SIGN_ORIGIN (sign-server.ts), signed PDFs go to the document storage.
 */
export function builtinSigningProvider(opts: { signOrigin: string; storage?: DocumentStorage }): SigningProvider {
  return {
    name: 'builtin',
    origin: opts.signOrigin,
    async createSubmission(tx, input) {
      const { tokenHash, documentUrl } = newSubmissionToken(opts.signOrigin);
      const submissionId = await insertSubmission(tx, {
        tokenHash,
        linkId: input.linkId,
        linkStepId: input.linkStepId,
        kind: input.kind,
        contractSnapshot: input.contractSnapshot,
      });
      return { submissionId, documentUrl };
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
