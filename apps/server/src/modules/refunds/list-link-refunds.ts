import type { LinkRefunds } from '@paylink/shared';
import type { Db } from '../../db/client.js';
import { typed } from '../../db/typed.js';
import { writeAudit, type Actor } from '../../lib/audit.js';
import { notFound } from '../../lib/errors.js';
import { linkMoney, type ReversalRow } from './money-movements.js';
import { toRefund } from './refund-queries.js';

export const toLinkRefund = (r: ReversalRow): LinkRefunds['refunds'][0] =>
  toRefund(r, r.n === null ? null : { n: r.n, count: r.installment_count ?? r.n });

/**
 * The refunds and voids of a link, oldest first, each naming the instalment it gives back, and the link's money over
 * the deposit and every instalment (the money card; decision 0243); looking is audited.
 */
export async function listLinkRefunds(o: { db: Db; actor: Actor; linkId: string }): Promise<LinkRefunds> {
  const link = await typed(o.db).selectFrom('link').select('id').where('id', '=', o.linkId).executeTakeFirst();
  if (!link) throw notFound('No link with this id.');
  const money = await linkMoney(o.db, o.linkId);
  await writeAudit(o.db, { ...o.actor, action: 'admin.refunds_viewed', linkId: o.linkId });
  return {
    refunds: money.reversals.map(toLinkRefund),
    money: { paid: money.paidCents / 100, refunded: money.refundedCents / 100, net: money.netCents / 100 },
  };
}
