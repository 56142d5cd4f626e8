import {
  ERROR_CODE,
  RESULT,
  centsFromConverge,
  convergeAmount,
  convergeError,
  encodeTxn,
  type ConvergeFields,
} from '../../providers/gateway/converge-protocol.js';
import { reversalFields } from './answers.js';
import { isSettled, type ReversalRow, type SandboxDb, type TxnRow } from './store.js';
import { newTxnId } from './test-cards.js';

export const xmlError = (code: string, name: string, message: string) => encodeTxn(convergeError(code, name, message));

const txnNotFound = () =>
  xmlError(
    ERROR_CODE.invalidTxnId,
    'Invalid Transaction ID',
    'The transaction ID is invalid for this transaction type.',
  );

/**
 * ccvoid and ccreturn, by Converge's rules: a void cancels a whole sale that has not settled; a return gives back
 * part or all of a settled one, never more in total than the sale. Each answers with its own transaction id.
 */
export async function reverse(opts: {
  db: SandboxDb;
  fields: ConvergeFields;
  kind: 'VOID' | 'RETURN';
}): Promise<string> {
  const { fields: f, kind } = opts;
  return opts.db.transaction(async (tx) => {
    const r = await tx.query<TxnRow>(
      'select * from sandbox_gateway_transaction where txn_id = $1 and merchant_id = $2 for update',
      [f.ssl_txn_id ?? '', f.ssl_merchant_id],
    );
    const t = r.rows[0];
    if (!t || t.result !== RESULT.approved) return txnNotFound();
    if (t.voided_at) {
      return xmlError(ERROR_CODE.invalidTxnId, 'Invalid Transaction ID', 'The transaction has already been voided.');
    }
    const done = await tx.query<{ sum: number }>(
      `select coalesce(sum(amount_cents), 0)::int as sum from sandbox_gateway_reversal where parent_txn_id = $1`,
      [t.txn_id],
    );
    const remaining = t.amount_cents - done.rows[0]!.sum;
    let amount = remaining;
    if (kind === 'VOID') {
      if (isSettled(t)) {
        return xmlError(
          ERROR_CODE.invalidTxnId,
          'Invalid Transaction ID',
          'The transaction has settled and cannot be voided; use ccreturn.',
        );
      }
    } else {
      if (!isSettled(t)) {
        return xmlError(
          ERROR_CODE.invalidTxnId,
          'Invalid Transaction ID',
          'The transaction has not settled yet; use ccvoid.',
        );
      }
      if (f.ssl_amount !== undefined && f.ssl_amount !== '') {
        const cents = centsFromConverge(f.ssl_amount);
        if (!cents) return xmlError('4013', 'Invalid Amount', 'ssl_amount is invalid.');
        amount = cents;
      }
      if (remaining <= 0 || amount > remaining) {
        return xmlError(
          '5012',
          'Amount Exceeds Original',
          `The return amount exceeds the amount left on the transaction (${convergeAmount(remaining)}).`,
        );
      }
    }
    const id = newTxnId();
    const ins = await tx.query<ReversalRow>(
      `insert into sandbox_gateway_reversal (txn_id, parent_txn_id, merchant_id, kind, amount_cents)
       values ($1, $2, $3, $4, $5) returning *`,
      [id, t.txn_id, t.merchant_id, kind, amount],
    );
    if (kind === 'VOID') {
      await tx.query('update sandbox_gateway_transaction set voided_at = now() where txn_id = $1', [t.txn_id]);
    }
    return encodeTxn(reversalFields(ins.rows[0]!, t));
  });
}
