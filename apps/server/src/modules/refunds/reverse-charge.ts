import type { Db } from '../../db/client.js';
import { writeAudit, type Actor } from '../../lib/audit.js';
import { AppError } from '../../lib/errors.js';
import {
  GatewayError,
  type CardGateway,
  type GatewayReversal,
  type GatewayTransaction,
} from '../../providers/gateway/types.js';
import { markRefundFailed, type RefundRow } from './refund-queries.js';

/** A sale is voided (ccvoid) while unsettled and returned (ccreturn) once the gateway has settled it. */
export const reversalKind = (settled: boolean): RefundRow['kind'] => (settled ? 'return' : 'void');

/** The charge as the gateway knows it (settled or not, its amount); an unreachable gateway means nothing was refunded. */
export async function lookUpCharge(gateway: CardGateway, transactionId: string): Promise<GatewayTransaction | null> {
  try {
    return await gateway.queryTransaction(transactionId);
  } catch (err) {
    if (err instanceof GatewayError) {
      throw new AppError(
        'gateway_unavailable',
        'The card gateway is not available right now. Nothing was refunded. Please try again in a few minutes.',
      );
    }
    throw err;
  }
}

export interface ReverseChargeOptions {
  db: Db;
  gateway: CardGateway;
  actor: Actor;
  linkId: string;
  /** The pending refund row that reserves the amount (written before the gateway is called). */
  refund: RefundRow;
  /** Set when the charge is a flagged second approval: the audits name it and the messages say the flag stays open. */
  attemptId?: string;
}

/**
 * Asks the gateway to give back the pending refund's charge: a void of the whole sale, or a return of its amount in
 * cents. A refusal fails the row (releasing the reservation) and is audited; a lost answer leaves the row pending
 * (we never guess that nothing happened). Both end in an AppError; the caller records a success.
 */
export async function reverseCharge(o: ReverseChargeOptions): Promise<GatewayReversal> {
  const { refund, attemptId } = o;
  const flagged = attemptId !== undefined;
  const about = { refundId: refund.id, ...(flagged ? { attemptId } : {}), kind: refund.kind };
  try {
    return refund.kind === 'void'
      ? await o.gateway.voidTransaction(refund.original_transaction_id)
      : await o.gateway.returnTransaction(refund.original_transaction_id, refund.amount_cents);
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err;
    if (err.refused) {
      await o.db.transaction(async (tx) => {
        await markRefundFailed(tx, refund.id, { code: err.code ?? null, message: err.message });
        await writeAudit(tx, {
          ...o.actor,
          action: 'payment.refund_refused',
          linkId: o.linkId,
          details: { ...about, code: err.code ?? null, message: err.message },
        });
      });
      throw new AppError(
        'refund_refused',
        `The card gateway refused the ${refund.kind === 'void' ? 'void' : 'refund'}: ${err.message} Nothing was refunded` +
          (flagged ? ' and the flag stays open.' : '.'),
      );
    }
    await writeAudit(o.db, {
      ...o.actor,
      action: 'payment.refund_outcome_unknown',
      linkId: o.linkId,
      details: { ...about, message: err.message },
    });
    throw new AppError(
      'refund_outcome_unknown',
      flagged
        ? 'The card gateway did not answer, so we do not know whether the void went through. It is kept as pending ' +
            'and the flag stays open: check the transaction at the gateway before trying again.'
        : 'The card gateway did not answer, so we do not know whether the refund went through. It is kept as ' +
            'pending (the amount stays reserved): check the transaction at the gateway before trying again.',
    );
  }
}
