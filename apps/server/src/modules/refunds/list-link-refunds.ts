import type { Refund } from '@paylink/shared';
import type { Db } from '../../db/client.js';
import { typed } from '../../db/typed.js';
import { writeAudit, type Actor } from '../../lib/audit.js';
import { notFound } from '../../lib/errors.js';
import { listRefundsForLink, toRefund } from './refund-queries.js';

/** The refunds and voids of a link, oldest first; looking is audited. */
export async function listLinkRefunds(o: { db: Db; actor: Actor; linkId: string }): Promise<{ refunds: Refund[] }> {
  const link = await typed(o.db).selectFrom('link').select('id').where('id', '=', o.linkId).executeTakeFirst();
  if (!link) throw notFound('No link with this id.');
  const rows = await listRefundsForLink(o.db, o.linkId);
  await writeAudit(o.db, { ...o.actor, action: 'admin.refunds_viewed', linkId: o.linkId });
  return { refunds: rows.map(toRefund) };
}
