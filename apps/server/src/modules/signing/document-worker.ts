import { buildSignedPdf, type SignedPdfInput } from './build-signed-pdf.js';
import { cleanContractPdf } from './clean-contract-pdf.js';
import { contractText } from './contract-text.js';
import { UploadRefused, normaliseUpload } from './normalise-upload.js';

/**
 * Runs in a worker thread (document-worker-pool.ts): the decoding and PDF work that would otherwise hold the event loop.
 * Refusals travel back as data, not as thrown errors.
 */
export default async function normaliseTask(bytes: Uint8Array) {
  try {
    return { ok: true as const, ...(await normaliseUpload(bytes)) };
  } catch (err) {
    if (err instanceof UploadRefused) return { ok: false as const, problem: err.problem };
    throw err;
  }
}

export function cleanContract(task: { bytes: Uint8Array; maxPages: number }) {
  return cleanContractPdf(task.bytes, { maxPages: task.maxPages });
}

export function signedPdf(input: SignedPdfInput) {
  return buildSignedPdf(input);
}

export function contractTextTask(task: { bytes: Uint8Array }) {
  return contractText(task.bytes);
}
