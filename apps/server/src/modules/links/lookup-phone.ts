import type { Db } from '../../db/client.js';
import { writeAudit } from '../../lib/audit.js';
import { requireUsableLink } from './link-queries.js';
import type { Actor } from './link-use-case.js';
import { maskPhone } from './mask-phone.js';

/** The sign-in page's phone number, masked; 401 text by link state (unknown ids included). */
export async function lookupPhone(opts: { db: Db; actor: Actor; linkId: string }): Promise<string> {
  return opts.db.transaction(async (tx) => {
    const link = await requireUsableLink(tx, opts.linkId);
    await writeAudit(tx, { ...opts.actor, action: 'patient.phone_lookup', linkId: link.id });
    return maskPhone(link.phone);
  });
}
