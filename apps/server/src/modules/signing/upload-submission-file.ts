import { randomUUID } from 'node:crypto';
import convertHeic from 'heic-convert';
import { PDFDocument } from 'pdf-lib';
import { ownBytes } from './pdf-writer.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../lib/errors.js';
import { writeAudit } from '../../lib/audit.js';
import { resolveSubmission } from './open-submission.js';
import {
  deleteSubmissionFile,
  findLinkFileByHash,
  insertSubmissionFile,
  listSubmissionFiles,
  sha256Hex,
  type SubmissionFileRow,
} from './submission-queries.js';

export type UploadProblem = 'too_large' | 'wrong_type' | 'unreadable' | 'encrypted_pdf' | 'duplicate' | 'not_id';

/** A file the server will not keep; `problem` picks the translated message on the page. */
export class UploadRefused extends AppError {
  constructor(
    readonly problem: UploadProblem,
    status: number,
  ) {
    super(status, `upload_${problem}`, problem);
    this.name = 'UploadRefused';
  }
}

type Detected = 'image/jpeg' | 'image/png' | 'application/pdf' | 'image/heic';

/** The type comes from the bytes, never from the name or the browser's claim. */
export function detectType(b: Uint8Array): Detected | null {
  if (b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (
    b.length > 8 &&
    Buffer.from(b.subarray(0, 8)).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return 'image/png';
  if (b.length > 5 && Buffer.from(b.subarray(0, 5)).toString('latin1') === '%PDF-') return 'application/pdf';
  if (b.length > 12 && Buffer.from(b.subarray(4, 8)).toString('latin1') === 'ftyp') {
    const brand = Buffer.from(b.subarray(8, 12)).toString('latin1');
    if (['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1'].includes(brand)) return 'image/heic';
  }
  return null;
}

/** Normalises an upload to what a PDF can embed: HEIC/HEIF becomes JPEG; PDFs must open without a password. */
export async function normaliseUpload(bytes: Uint8Array): Promise<{
  originalMime: Detected;
  mime: SubmissionFileRow['mime'];
  bytes: Uint8Array;
}> {
  const type = detectType(bytes);
  if (!type) throw new UploadRefused('wrong_type', 415);
  try {
    if (type === 'image/heic') {
      const jpeg = await convertHeic({ buffer: Buffer.from(bytes), format: 'JPEG', quality: 0.85 });
      return { originalMime: type, mime: 'image/jpeg', bytes: new Uint8Array(jpeg) };
    }
    const probe = await PDFDocument.create();
    if (type === 'image/jpeg') await probe.embedJpg(ownBytes(bytes));
    if (type === 'image/png') await probe.embedPng(ownBytes(bytes));
  } catch {
    throw new UploadRefused('unreadable', 422);
  }
  if (type === 'application/pdf') {
    let encrypted = false;
    try {
      const doc = await PDFDocument.load(ownBytes(bytes), { updateMetadata: false, ignoreEncryption: true });
      encrypted = doc.isEncrypted;
      if (!encrypted && doc.getPageCount() === 0) throw new Error('no pages');
    } catch {
      throw new UploadRefused('unreadable', 422);
    }
    if (encrypted) throw new UploadRefused('encrypted_pdf', 422);
  }
  return { originalMime: type, mime: type, bytes };
}

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
  if (input.bytes.length > ctx.config.UPLOAD_MAX_MB * 1024 * 1024) throw new UploadRefused('too_large', 413);
  if (input.bytes.length === 0) throw new UploadRefused('unreadable', 422);
  const contentSha256 = sha256Hex(input.bytes);
  // Refuse early (before the slow conversion) when the token or the file cannot be accepted.
  await ctx.db.transaction(async (tx) => {
    const { submission } = await resolveSubmission(tx, input.token);
    if (submission.kind !== 'patient_id' && submission.kind !== 'payor_id') throw new UploadRefused('not_id', 400);
  });
  const normalised = await normaliseUpload(input.bytes);
  const { storage } = ctx.providers;
  let replaced: SubmissionFileRow | undefined;
  const row = await ctx.db.transaction(async (tx) => {
    const { submission } = await resolveSubmission(tx, input.token, { forUpdate: true });
    if (submission.kind !== 'patient_id' && submission.kind !== 'payor_id') throw new UploadRefused('not_id', 400);
    const same = await findLinkFileByHash(tx, submission.link_id, contentSha256);
    if (same) {
      if (same.submission_id === submission.id && same.side === input.side) return same;
      throw new UploadRefused('duplicate', 409);
    }
    replaced = (await listSubmissionFiles(tx, submission.id)).find((f) => f.side === input.side);
    if (replaced) await deleteSubmissionFile(tx, replaced.id);
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
    await storage.put(file.storage_key, normalised.bytes, file.mime);
    try {
      await insertSubmissionFile(tx, file);
    } catch (err) {
      // Two uploads of the same bytes at once: the unique index decides, the loser gets the duplicate message.
      if ((err as { code?: string }).code === '23505') throw new UploadRefused('duplicate', 409);
      throw err;
    }
    await writeAudit(tx, {
      actorType: 'link',
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
        replaced: replaced?.id ?? null,
      },
    });
    return file;
  });
  if (replaced && replaced.id !== row.id) await storage.delete(replaced.storage_key).catch(() => undefined);
  return row;
}
