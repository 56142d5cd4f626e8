import { randomBytes } from 'node:crypto';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/client.js';
import { cleanName } from '@paylink/shared';
import { AppError } from '../../lib/errors.js';
import { signedPdfInWorker } from './document-worker-pool.js';
import { MAX_SIGNATURE_PIXELS, checkImagePixels } from './image-limits.js';
import { contractForSubmission } from './contracts.js';
import { buildOriginalPdf, expectedSigner, loadDocumentData } from './documents.js';
import { resolveSubmission, SubmissionRefused } from './open-submission.js';
import type { Lang } from './sign-texts.js';
import { listSubmissionFiles, markSubmissionCompleted, sha256Hex, signedStorageKeyOf } from './submission-queries.js';

export type CompleteProblem = 'missing_files' | 'missing_name' | 'missing_signature' | 'bad_signature' | 'changed';

export class CompleteRefused extends AppError {
  constructor(readonly problem: CompleteProblem) {
    super(problem === 'changed' ? 'document_changed' : problem, problem);
    this.name = 'CompleteRefused';
  }
}

export interface CompleteInput {
  token: string;
  lang: Lang;
  signerName?: string;
  method?: 'draw' | 'type';
  /** data:image/png;base64,... from the signature pad. */
  signatureDataUrl?: string;
  typedSignature?: string;
  /** SHA-256 of the document the page showed: the signer signs exactly that. */
  documentSha256?: string;
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
}

const PNG_DATA_URL = /^data:image\/png;base64,([A-Za-z0-9+/]+={0,2})$/;
const MAX_SIGNATURE_BYTES = 1024 * 1024;

function signatureBytes(dataUrl: string | undefined): Uint8Array {
  const m = dataUrl ? PNG_DATA_URL.exec(dataUrl) : null;
  if (!m) throw new CompleteRefused('missing_signature');
  const bytes = Buffer.from(m[1]!, 'base64');
  if (bytes.length < 100 || bytes.length > MAX_SIGNATURE_BYTES) throw new CompleteRefused('bad_signature');
  // The same header check as uploads: a small PNG may declare a huge canvas (decompression bomb, issue 11).
  if (!checkImagePixels(bytes, MAX_SIGNATURE_PIXELS).ok) throw new CompleteRefused('bad_signature');
  return bytes;
}

/**
 * Records a signature (or the ID upload) and stores the signed PDF; the browser learns of completion only after this
 * returns, and a second attempt finds it completed. A signature needs no transaction (issue 30): the completing
 * statement completes only a pending submission and writes the audit row only then, so of two at once one completes
 * it and the other is refused as a later one is; each stores its PDF under a key of its own, and the refused one's
 * goes. An ID pack is built from the submission's files, which an upload changes under the submission's lock: it
 * holds that lock, in a transaction, as before. The page posts a method with a signature only, which picks the way.
 */
export async function completeSubmission(
  ctx: Pick<AppContext, 'db' | 'config' | 'providers'>,
  input: CompleteInput,
): Promise<{ formID: string; signedSha256: string }> {
  if (input.method === 'draw' || input.method === 'type') {
    const opened = await resolveSubmission(ctx.db, input.token, { payment: true });
    if (!isIdKind(opened.submission.kind)) return complete(ctx.db, ctx, input, opened);
  }
  return ctx.db.transaction(async (tx) => {
    // The lock and the payment in one statement; the payment choice is not guarded by this lock, so reading it in
    // the locking statement (whose snapshot may predate a wait) is as good as just after.
    const opened = await resolveSubmission(tx, input.token, { forUpdate: true, payment: true });
    return complete(tx, ctx, input, opened);
  });
}

const isIdKind = (kind: string) => kind === 'patient_id' || kind === 'payor_id';

async function complete(
  q: Queryable,
  ctx: Pick<AppContext, 'db' | 'config' | 'providers'>,
  input: CompleteInput,
  opened: Awaited<ReturnType<typeof resolveSubmission>>,
): Promise<{ formID: string; signedSha256: string }> {
  const { submission, link } = opened;
  const data = await loadDocumentData(q, opened);
  const isId = isIdKind(submission.kind);
  const { storage } = ctx.providers;
  let signerName: string;
  let signaturePng: Uint8Array | undefined;
  let typedSignature: string | undefined;
  let files: { side: 'front' | 'back'; name: string; sha256: string }[] | undefined;
  let original: Uint8Array;

  if (isId) {
    // After the lock, in a statement of its own: an upload that held the lock has committed its file by now.
    const rows = await listSubmissionFiles(q, submission.id);
    if (!rows.some((f) => f.side === 'front') || !rows.some((f) => f.side === 'back')) {
      throw new CompleteRefused('missing_files');
    }
    const withBytes = [];
    for (const row of rows) {
      const bytes = await storage.get(row.storage_key);
      if (!bytes) throw new Error(`Stored file missing: ${row.storage_key}`);
      withBytes.push({ row, bytes });
    }
    signerName = (cleanName(input.signerName ?? '') || expectedSigner(data) || 'Patient').slice(0, 200);
    files = rows.map((r) => ({ side: r.side, name: r.original_name || r.side, sha256: r.content_sha256 }));
    original = await buildOriginalPdf(data, input.lang, { files: withBytes });
  } else {
    // Stored and printed later (PDF, console, CLI): no control characters or bidi overrides (issue 11, finding 4).
    signerName = cleanName(input.signerName ?? '');
    if (!signerName || signerName.length > 200) throw new CompleteRefused('missing_name');
    if (input.method === 'draw') signaturePng = signatureBytes(input.signatureDataUrl);
    else if (input.method === 'type') {
      typedSignature = cleanName(input.typedSignature ?? '');
      if (!typedSignature || typedSignature.length > 200) throw new CompleteRefused('missing_signature');
    } else throw new CompleteRefused('missing_signature');
    const contract =
      submission.kind === 'contract'
        ? await contractForSubmission(q, { config: ctx.config, storage }, submission, input.lang)
        : null;
    original = await buildOriginalPdf(data, input.lang, { contract: contract?.bytes });
  }
  const originalSha256 = sha256Hex(original);
  if (!isId && input.documentSha256 !== originalSha256) throw new CompleteRefused('changed');

  const signedAt = new Date();
  const method = isId ? 'upload' : input.method!;
  let signed: Uint8Array;
  try {
    signed = await signedPdfInWorker({
      original,
      originalSha256,
      lang: input.lang,
      kind: submission.kind,
      submissionId: submission.id,
      linkId: link.id,
      signerName,
      method,
      signaturePng,
      typedSignature,
      signedAt,
      ip: input.ip,
      userAgent: input.userAgent?.slice(0, 400) ?? null,
      files,
    });
  } catch (err) {
    if (signaturePng) throw new CompleteRefused('bad_signature');
    throw err;
  }
  const signedSha256 = sha256Hex(signed);
  // A key of this attempt's own: another attempt at once must not overwrite the PDF the completing one recorded.
  const key = `submissions/${submission.id}/signed-${randomBytes(8).toString('hex')}.pdf`;
  await storage.put(key, signed, 'application/pdf');
  let completed: boolean;
  try {
    completed = await markSubmissionCompleted(
      q,
      {
        id: submission.id,
        signerName,
        method,
        ip: input.ip,
        userAgent: input.userAgent?.slice(0, 400) ?? null,
        originalSha256,
        signedSha256,
        signedStorageKey: key,
        completedAt: signedAt,
        typedSignature,
      },
      {
        actorType: 'link',
        actorId: `submission:${submission.id}`,
        action: 'document.signed',
        linkId: link.id,
        requestId: input.requestId,
        ip: input.ip,
        details: { submissionId: submission.id, kind: submission.kind, method, originalSha256, signedSha256 },
      },
    );
  } catch (err) {
    await dropUnrecordedPdf(q, storage, submission.id, key);
    throw err;
  }
  if (!completed) {
    await storage.delete(key).catch(() => undefined);
    // Completed by another request (or its step list rebuilt) since the read: refused as a read now refuses it.
    await resolveSubmission(q, input.token);
    throw new SubmissionRefused('already_completed');
  }
  return { formID: submission.id, signedSha256 };
}

/**
 * After the completing write failed: the PDF just stored goes, unless the write committed after all (a connection lost
 * after COMMIT), in which case the row names it and it stays. When the row cannot be read either, the PDF stays: a
 * stray file is better than a signed document whose PDF is gone.
 */
async function dropUnrecordedPdf(
  q: Queryable,
  storage: AppContext['providers']['storage'],
  submissionId: string,
  key: string,
): Promise<void> {
  try {
    if ((await signedStorageKeyOf(q, submissionId)) !== key) await storage.delete(key);
  } catch {
    // The database or the storage is unavailable: the caller's error is the one to report.
  }
}
