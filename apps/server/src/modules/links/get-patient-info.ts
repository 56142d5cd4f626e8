import type { PatientInfo } from '@paylink/shared';
import type { Db } from '../../db/client.js';
import type { Actor } from '../../lib/audit.js';
import type { AuditBatch } from '../../lib/audit-batch.js';
import type { SessionClaim } from '../../http/session-tokens.js';
import { readPatientLink } from './read-patient-link.js';
import { toPatientInfo } from './link-views.js';

/** One read statement (session row, link, payment), then the audit row through the batch (read-patient-link.ts). */
export async function getPatientInfo(opts: {
  db: Db;
  audits: AuditBatch;
  actor: Actor;
  claim: SessionClaim;
}): Promise<PatientInfo> {
  const { link, payment } = await readPatientLink({ ...opts, action: 'patient.info_read' });
  return toPatientInfo(link, payment);
}
