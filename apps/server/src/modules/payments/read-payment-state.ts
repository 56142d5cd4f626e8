import { LinkMessages } from '@paylink/shared';
import type { Db } from '../../db/client.js';
import { LinkStateError } from '../../lib/errors.js';
import { findPayment, requireUsableLink } from '../links/index.js';
import { hasPaymentInProgress } from './payment-queries.js';

/**
 * GET /api/converge/state (issue 25, decision 0192): whether a payment of the signed-in link is under way — a token
 * being fetched, handed out and live, or an attempt whose outcome the gateway could not tell yet. A browser refused
 * with 409 payment_in_progress asks this until the other browser's payment ends: `inProgress: false` (it may pay), or
 * 401 'Process has completed.' once the payment is recorded (by the paying browser's confirmation or by
 * reconciliation). A read of the link's own state: it asks the gateway nothing and writes nothing.
 */
export async function readPaymentState(opts: { db: Db; linkId: string }): Promise<{ inProgress: boolean }> {
  const link = await requireUsableLink(opts.db, opts.linkId);
  const payment = await findPayment(opts.db, link.id);
  if (payment?.status === 'approved') throw new LinkStateError(LinkMessages.completed);
  return { inProgress: await hasPaymentInProgress(opts.db, link.id) };
}
