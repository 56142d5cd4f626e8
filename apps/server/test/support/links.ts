import type { Queryable } from '../../src/db/client.js';

/** Test support: every row a refused request must leave untouched, so a test can assert "nothing changed". */
export async function snapshotLinkData(db: Queryable): Promise<string> {
  const tables = ['link', 'link_step', 'payment', 'payment_log', 'audit_event', 'patient_session'];
  const out: Record<string, unknown[]> = {};
  for (const t of tables) out[t] = (await db.query(`select * from ${t} order by 1`)).rows;
  return JSON.stringify(out);
}

/**
 * Test support: records a step's document as signed, the way the signing service records a completed submission,
 * without rendering PDFs (the signing module's own tests cover that).
 */
export async function markStepDocumentSigned(db: Queryable, linkStepId: number): Promise<void> {
  const { markSubmissionCompleted, submissionForStep, sha256Hex } =
    await import('../../src/modules/signing/submission-queries.js');
  const s = await submissionForStep(db, linkStepId);
  if (!s) throw new Error(`step ${linkStepId} has no document`);
  await markSubmissionCompleted(db, {
    id: s.id,
    signerName: 'Maria Lopez',
    method: 'type',
    ip: null,
    userAgent: null,
    originalSha256: sha256Hex('original'),
    signedSha256: sha256Hex('signed'),
    signedStorageKey: `test/${s.id}.pdf`,
    completedAt: new Date(),
  });
}
