import {
  APPROVAL_MESSAGE,
  ERROR_CODE,
  RECURRING_FLAG,
  RESULT,
  SANDBOX_CLOCK_FIELD,
  centsFromConverge,
  encodeTxn,
  type ConvergeFields,
} from '../../providers/gateway/converge-protocol.js';
import { txnFields } from './answers.js';
import { xmlError } from './reversals.js';
import { storedCard, tokenSaleSession, type SandboxDb, type TxnRow } from './store.js';
import { EXPIRED_MESSAGE, isExpired, newApprovalCode, newTxnId, testCardForToken } from './test-cards.js';

/**
 * ccsale with ssl_token on the XML API: a merchant-initiated charge of a card stored in the sandbox's Card Manager.
 * No 3-D Secure (the cardholder is not there); the stored-credential flags are checked as Converge documents them.
 * Like Converge, ssl_merchant_txn_id is a reference, not an idempotency key: the same id twice is two sales, which is
 * why a caller reconciles (txnquery by merchant transaction id) before it retries.
 */
export async function tokenSale(opts: { db: SandboxDb; fields: ConvergeFields; key: string }): Promise<string> {
  const { fields: f } = opts;
  if (!f.ssl_token) {
    // Card numbers never reach the sandbox's XML API: card data goes through hosted payments only.
    return xmlError(ERROR_CODE.requiredField, 'Required Field Not Supplied', 'ccsale here takes ssl_token.');
  }
  const amountCents = centsFromConverge(f.ssl_amount ?? '');
  if (!amountCents) return xmlError('4013', 'Invalid Amount', 'ssl_amount is invalid.');
  const flag = f.ssl_recurring_flag ?? '';
  if (flag && flag !== RECURRING_FLAG.recurring && flag !== RECURRING_FLAG.installment) {
    return xmlError(ERROR_CODE.requiredField, 'Invalid Field', 'ssl_recurring_flag must be 1 or 2.');
  }
  if (flag === RECURRING_FLAG.installment) {
    const n = Number(f.ssl_payment_number);
    const count = Number(f.ssl_payment_count);
    if (!Number.isInteger(n) || !Number.isInteger(count) || n < 1 || count < n) {
      return xmlError(
        ERROR_CODE.requiredField,
        'Required Field Not Supplied',
        'An installment (ssl_recurring_flag=2) needs ssl_payment_number and ssl_payment_count.',
      );
    }
  }
  // The caller's business clock (the scheduler's pass, `plans run --now`): the card is judged as the bank would on
  // that day (decision 0246). Without it, or unreadable, the real clock.
  const sent = f[SANDBOX_CLOCK_FIELD] ? new Date(f[SANDBOX_CLOCK_FIELD]) : null;
  const asOf = sent && !Number.isNaN(sent.getTime()) ? sent : new Date();
  const merchantId = f.ssl_merchant_id ?? '';
  return opts.db.transaction(async (tx) => {
    const card = await storedCard(tx, merchantId, f.ssl_token!);
    if (!card) {
      return xmlError(
        ERROR_CODE.invalidCard,
        'Invalid Token',
        'The token supplied in the authorization request is not stored in Card Manager.',
      );
    }
    const testCard = testCardForToken(card.token, merchantId, opts.key);
    let result: '0' | '1' = RESULT.approved;
    let message = APPROVAL_MESSAGE;
    if (isExpired(card.expiry, asOf)) {
      result = RESULT.declined;
      message = EXPIRED_MESSAGE;
    } else if (testCard?.laterCharges?.kind === 'decline') {
      result = RESULT.declined;
      message = testCard.laterCharges.message;
    }
    const txnId = newTxnId();
    const session = tokenSaleSession(card.token, txnId);
    await tx.query(
      `insert into sandbox_gateway_session
         (token, merchant_id, amount_cents, merchant_txn_id, first_name, last_name, expires_at, used_at)
       values ($1, $2, $3, $4, $5, $6, now(), now())`,
      [session, merchantId, amountCents, f.ssl_merchant_txn_id || null, card.firstName, card.lastName],
    );
    const t = await tx.query<TxnRow>(
      `insert into sandbox_gateway_transaction (txn_id, session_token, merchant_id, merchant_txn_id, amount_cents,
         result, result_message, approval_code, card_brand, card_last4, first_name, last_name, eci_ind, card_token)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, '7', $13) returning *`,
      [
        txnId,
        session,
        merchantId,
        f.ssl_merchant_txn_id || null,
        amountCents,
        result,
        message,
        result === RESULT.approved ? newApprovalCode() : null,
        card.cardBrand,
        card.cardLast4,
        f.ssl_first_name || card.firstName,
        f.ssl_last_name || card.lastName,
        card.token,
      ],
    );
    return encodeTxn(txnFields(t.rows[0]!, card));
  });
}
