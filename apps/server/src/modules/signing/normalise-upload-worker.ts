import { UploadRefused, normaliseUpload } from './normalise-upload.js';

/** Runs in a worker thread (normalise-upload-pool.ts): refusals travel back as data, not as thrown errors. */
export default async function normaliseTask(bytes: Uint8Array) {
  try {
    return { ok: true as const, ...(await normaliseUpload(bytes)) };
  } catch (err) {
    if (err instanceof UploadRefused) return { ok: false as const, problem: err.problem };
    throw err;
  }
}
