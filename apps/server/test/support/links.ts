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
  const { submissionForStep, sha256Hex } = await import('../../src/modules/signing/submission-queries.js');
  const s = await submissionForStep(db, linkStepId);
  if (!s) throw new Error(`step ${linkStepId} has no document`);
  // The columns markSubmissionCompleted sets (without its audit row, which these tests do not look at).
  await db.query(
    `update submission set status = 'completed', signer_name = 'Maria Lopez', signature_method = 'type',
       original_sha256 = $2, signed_sha256 = $3, signed_storage_key = $4, completed_at = now(), updated_at = now()
     where id = $1 and status = 'pending'`,
    [s.id, sha256Hex('original'), sha256Hex('signed'), `test/${s.id}.pdf`],
  );
}
