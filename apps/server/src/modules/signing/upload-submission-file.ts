import { randomUUID } from 'node:crypto';
import { normaliseInWorker } from './document-worker-pool.js';
import { UploadRefused } from './normalise-upload.js';
import type { AppContext } from '../../context.js';
import { resolveSubmission } from './open-submission.js';
import {
  deleteSubmissionFile,
  filesForUpload,
  insertSubmissionFile,
  insertSubmissionFileIfNew,
  sha256Hex,
  type SubmissionFileRow,
} from './submission-queries.js';

export { UploadRefused } from './normalise-upload.js';

const EXT: Record<SubmissionFileRow['mime'], string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'application/pdf': 'pdf',
};

/**
 * Keeps one side (front or back) of an ID document for a pending ID submission. Uploading a side again replaces it;
 * the same bytes already uploaded anywhere on this link are refused (the spec: do not upload the same document twice).
 */
export async function uploadSubmissionFile(
  ctx: Pick<AppContext, 'db' | 'config' | 'providers'>,
  input: {
    token: string;
    side: 'front' | 'back';
    fileName: string;
    bytes: Uint8Array;
    requestId: string | null;
    ip: string | null;
  },
): Promise<SubmissionFileRow> {
  if (input.bytes.length > ctx.config.UPLOAD_MAX_MB * 1024 * 1024) throw new UploadRefused('too_large');
  if (input.bytes.length === 0) throw new UploadRefused('unreadable');
  const contentSha256 = sha256Hex(input.bytes);
  // Refuse early (before the slow conversion) when the token or the file cannot be accepted: one read, no
  // transaction (issue 30); the write below checks again under the lock.
  const early = await resolveSubmission(ctx.db, input.token);
  if (early.submission.kind !== 'patient_id' && early.submission.kind !== 'payor_id') throw new UploadRefused('not_id');
  // Decoding runs in a worker thread: a hostile file cannot stall the API, the signing pages or the gateway.
  const normalised = await normaliseInWorker(input.bytes);
  const { storage } = ctx.providers;
  let replaced: SubmissionFileRow | undefined;
  let stored: string | undefined;
  let row: SubmissionFileRow;
  try {
    row = await ctx.db.transaction(async (tx) => {
      const { submission } = await resolveSubmission(tx, input.token, { forUpdate: true });
      if (submission.kind !== 'patient_id' && submission.kind !== 'payor_id') throw new UploadRefused('not_id');
      const id = randomUUID();
      const file: SubmissionFileRow = {
        id,
        submission_id: submission.id,
        link_id: submission.link_id,
        side: input.side,
        original_name: input.fileName.replace(/[\\/\0\r\n]/g, '_').slice(0, 200),
        original_mime: normalised.originalMime,
        content_sha256: contentSha256,
        mime: normalised.mime,
        size_bytes: normalised.bytes.length,
        storage_key: `submissions/${submission.id}/${id}.${EXT[normalised.mime]}`,
        created_at: new Date(),
      };
      const audit = (replacedId: string | null) => ({
        actorType: 'link' as const,
        actorId: `submission:${submission.id}`,
        action: 'document.file_uploaded',
        linkId: submission.link_id,
        requestId: input.requestId,
        ip: input.ip,
        details: {
          submissionId: submission.id,
          fileId: id,
          side: input.side,
          sha256: contentSha256,
          mime: normalised.originalMime,
          size: input.bytes.length,
          replaced: replacedId,
        },
      });
      // Stored before the row; removed below unless this file's row is what the upload answers.
      await storage.put(file.storage_key, normalised.bytes, file.mime);
      stored = file.storage_key;
      // A side's first file (the usual case): the insert checks the link's files itself, one statement (issue 30).
      if (await duplicateAsRefused(() => insertSubmissionFileIfNew(tx, file, audit(null)))) return file;
      // Else, as before: after the lock, in a statement of its own (the locking one's snapshot may predate the wait).
      const found = await filesForUpload(tx, {
        linkId: submission.link_id,
        contentSha256,
        submissionId: submission.id,
        side: input.side,
      });
      const same = found.same;
      if (same) {
        if (same.submission_id === submission.id && same.side === input.side)
          return { ...same, created_at: new Date(same.created_at) };
        throw new UploadRefused('duplicate');
      }
      replaced = found.replaced ?? undefined;
      // Not folded into the insert: (submission_id, side) is unique, and one statement cannot free a key and reuse it.
      if (replaced) await deleteSubmissionFile(tx, replaced.id);
      await duplicateAsRefused(() => insertSubmissionFile(tx, file, audit(replaced?.id ?? null)));
      return file;
    });
  } catch (err) {
    if (stored) await storage.delete(stored).catch(() => undefined);
    throw err;
  }
  if (stored && stored !== row.storage_key) await storage.delete(stored).catch(() => undefined);
  if (replaced && replaced.id !== row.id) await storage.delete(replaced.storage_key).catch(() => undefined);
  return row;
}

/** Two uploads of the same bytes at once: the unique index decides, the loser gets the duplicate message. */
async function duplicateAsRefused<T>(insert: () => Promise<T>): Promise<T> {
  try {
    return await insert();
  } catch (err) {
    if ((err as { code?: string }).code === '23505') throw new UploadRefused('duplicate');
    throw err;
  }
}
