import { PaymentSource, type ResendReceiptResult } from '@paylink/shared';
import { sql } from 'kysely';
import type { LinkPlans } from '../../context.js';
import type { Db } from '../../db/client.js';
import { typed } from '../../db/typed.js';
import type { Actor } from '../../lib/audit.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { PracticeInfo } from '../../messages/index.js';
import { findLink, findPayment } from '../links/index.js';
import { queueReceipt } from './confirm-payment.js';

/** One resend per link in this many seconds: a double click or an impatient second try sends nothing twice. */
export const RECEIPT_RESEND_INTERVAL_SECONDS = 10 * 60;

/**
 * POST /api/admin/links/:id/receipt (issue 29, item 4; decision 0219): a paid link's receipt again, by the first
 * receipt's rules (the payor's or the patient's e-mail on file, else SMS to a phone that did not opt out), through
 * the outbox, audited as `payment.receipt_resent` with the staff member. Refused: no approved payment (409 not_paid),
 * nowhere to send it (409 no_receipt_address), a resend in the last ten minutes (429 rate_limited, retryAfterSeconds).
 */
export async function resendReceipt(opts: {
  db: Db;
  actor: Actor;
  linkId: string;
  practiceFallback?: Partial<PracticeInfo>;
  timeZone?: string;
  /** The app's public URL: the SMS receipt carries the patient's link. */
  publicUrl?: string;
  plans?: LinkPlans;
}): Promise<ResendReceiptResult> {
  return opts.db.transaction(async (tx) => {
    const link = await findLink(tx, opts.linkId, { forUpdate: true });
    if (!link) throw notFound('No link with this id.');
    const paid = await findPayment(tx, link.id);
    if (!paid || paid.status !== 'approved' || !paid.transaction_id) {
      throw new AppError('not_paid', 'This link has no approved payment: there is no receipt to send.');
    }
    const last = await typed(tx)
      .selectFrom('audit_event')
      .select(sql<number>`extract(epoch from now() - max(at))::int`.as('ago'))
      .where('link_id', '=', link.id)
      .where('action', '=', 'payment.receipt_resent')
      .executeTakeFirst();
    if (last?.ago !== null && last?.ago !== undefined && last.ago < RECEIPT_RESEND_INTERVAL_SECONDS) {
      const wait = RECEIPT_RESEND_INTERVAL_SECONDS - last.ago;
      throw new AppError('rate_limited', `The receipt was sent again a moment ago. Try again in ${wait} seconds.`, {
        retryAfterSeconds: wait,
      });
    }
    const payorPays = paid.payment_source_id === PaymentSource.Payor;
    const receipt = await queueReceipt(tx, {
      actor: opts.actor,
      link,
      paid,
      payorPays,
      payorName: paid.payor_full_name,
      payorEmail: paid.payor_email,
      practiceFallback: opts.practiceFallback,
      timeZone: opts.timeZone,
      publicUrl: opts.publicUrl,
      plans: opts.plans,
      action: 'payment.receipt_resent',
    });
    if (receipt.channel === 'none' || !receipt.to) {
      throw new AppError(
        'no_receipt_address',
        'There is no e-mail address or phone (that accepts texts) on file to send the receipt to.',
      );
    }
    return { channel: receipt.channel, to: receipt.to };
  });
}
