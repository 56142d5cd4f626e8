import { PDFDocument } from 'pdf-lib';
import { AppError, type AppErrorCode } from '../../lib/errors.js';
import { checkImagePixels } from './image-limits.js';
import { ownBytes } from './pdf-writer.js';
import type { SubmissionFileRow } from './submission-queries.js';

export type UploadProblem =
  'too_large' | 'too_many_pixels' | 'wrong_type' | 'unreadable' | 'encrypted_pdf' | 'duplicate' | 'not_id' | 'busy';

/** A file the server will not keep; `problem` picks the translated message on the page. */
export class UploadRefused extends AppError {
  constructor(
    readonly problem: UploadProblem,
    /** The refusal code when it is not `upload_<problem>` (a request that is not multipart at all). */
    code: Extract<AppErrorCode, `upload_${string}`> = `upload_${problem}`,
  ) {
    super(code, problem);
    this.name = 'UploadRefused';
  }
}

type Detected = 'image/jpeg' | 'image/png' | 'application/pdf' | 'image/heic';

/** The type comes from the bytes, never from the name or the browser's claim. */
function detectType(b: Uint8Array): Detected | null {
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
  if (!type) throw new UploadRefused('wrong_type');
  if (type !== 'application/pdf') {
    const pixels = checkImagePixels(bytes);
    if (!pixels.ok) throw new UploadRefused(pixels.reason);
  }
  try {
    if (type === 'image/heic') {
      // Loaded on first use: libheif is large and only HEIC uploads (in the worker thread) need it (issue 17, memory).
      const { default: convertHeic } = await import('heic-convert');
      const jpeg = await convertHeic({ buffer: Buffer.from(bytes), format: 'JPEG', quality: 0.85 });
      return { originalMime: type, mime: 'image/jpeg', bytes: new Uint8Array(jpeg) };
    }
    const probe = await PDFDocument.create();
    if (type === 'image/jpeg') await probe.embedJpg(ownBytes(bytes));
    if (type === 'image/png') await probe.embedPng(ownBytes(bytes));
  } catch {
    throw new UploadRefused('unreadable');
  }
  if (type === 'application/pdf') {
    let encrypted = false;
    try {
      const doc = await PDFDocument.load(ownBytes(bytes), { updateMetadata: false, ignoreEncryption: true });
      encrypted = doc.isEncrypted;
      if (!encrypted && doc.getPageCount() === 0) throw new Error('no pages');
    } catch {
      throw new UploadRefused('unreadable');
    }
    if (encrypted) throw new UploadRefused('encrypted_pdf');
  }
  return { originalMime: type, mime: type, bytes };
}
