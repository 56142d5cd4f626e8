import type { RefundOptions } from '@paylink/shared';
import type { Db } from '../../db/client.js';
import { writeAudit, type Actor } from '../../lib/audit.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { CardGateway } from '../../providers/gateway/types.js';
import { findLink, findPayment } from '../links/index.js';
import { lookUpCharge, reversalKind } from './reverse-charge.js';

/**
 * GET /api/admin/links/:id/refund-options (issue 29, item 4; decision 0219): whether the gateway has settled the
 * link's sale, so the refund dialog says at its Review step, before anything is confirmed, that an unsettled payment
 * can only be voided in full today. The same gateway answer refundPayment acts on; audited as a staff read.
 */
export async function refundOptions(opts: {
  db: Db;
  gateway: CardGateway;
  actor: Actor;
  linkId: string;
}): Promise<RefundOptions> {
  const { link, txn } = await findChargeToRefund(opts);
  await writeAudit(opts.db, {
    ...opts.actor,
    action: 'admin.refund_options_viewed',
    linkId: link.id,
    details: { settled: txn.settled },
  });
  return { settled: txn.settled, voidOnly: reversalKind(txn.settled) === 'void' };
}

/** The link, its approved payment and the gateway's view of the sale; refused when there is nothing to refund. */
export async function findChargeToRefund(opts: { db: Db; gateway: CardGateway; linkId: string }) {
  const link = await findLink(opts.db, opts.linkId);
  if (!link) throw notFound('No link with this id.');
  const payment = await findPayment(opts.db, link.id);
  if (!payment || payment.status !== 'approved' || !payment.transaction_id) {
    throw new AppError('not_paid', 'This link has no approved payment to refund.');
  }
  const txn = await lookUpCharge(opts.gateway, payment.transaction_id);
  if (!txn) {
    throw new AppError('gateway_unknown_transaction', 'The card gateway does not know this payment’s transaction.');
  }
  return { link, payment, txn };
}
