import type { PatientInfo } from '@paylink/shared';
import type { Db } from '../../db/client.js';
import { writeAudit } from '../../lib/audit.js';
import { findPayment, requireUsableLink } from './link-queries.js';
import type { Actor } from '../../lib/audit.js';
import { toPatientInfo } from './link-views.js';

export async function getPatientInfo(opts: { db: Db; actor: Actor; linkId: string }): Promise<PatientInfo> {
  return opts.db.transaction(async (tx) => {
    const link = await requireUsableLink(tx, opts.linkId);
    const payment = await findPayment(tx, link.id);
    await writeAudit(tx, { ...opts.actor, action: 'patient.info_read', linkId: link.id });
    return toPatientInfo(link, payment);
  });
}
