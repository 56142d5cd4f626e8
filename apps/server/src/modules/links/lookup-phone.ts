import type { Db } from '../../db/client.js';
import { writeAudit } from '../../lib/audit.js';
import { requireUsableLink } from './link-queries.js';
import type { Actor } from '../../lib/audit.js';
import { maskPhone } from './mask-phone.js';

/** The sign-in page's phone number, masked; 401 text by link state (unknown ids included). */
export async function lookupPhone(opts: { db: Db; actor: Actor; linkId: string }): Promise<string> {
  return opts.db.transaction(async (tx) => {
    const link = await requireUsableLink(tx, opts.linkId);
    // The sign-in page asks on every load: one audit row per link per hour says it was looked at, without noise.
    const recent = await tx.query(
      `select 1 from audit_event where link_id = $1 and action = 'patient.phone_lookup'
         and at > now() - interval '1 hour' limit 1`,
      [link.id],
    );
    if (recent.rowCount === 0) await writeAudit(tx, { ...opts.actor, action: 'patient.phone_lookup', linkId: link.id });
    return maskPhone(link.phone);
  });
}
