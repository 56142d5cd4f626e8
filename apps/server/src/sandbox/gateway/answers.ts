import { timingSafeEqual } from 'node:crypto';
import {
  ANSWER_TYPE,
  APPROVAL_MESSAGE,
  CARD_SHORT,
  ERROR_CODE,
  RESULT,
  TOKEN_SUCCESS,
  TRANS_STATUS,
  convergeAmount,
  convergeError,
  convergeTime,
  type ConvergeCredentials,
  type ConvergeFields,
} from '../../providers/gateway/converge-protocol.js';
import { isSettled, type ReversalRow, type StoredCard, type TxnRow } from './store.js';
import { EXPIRED_MESSAGE, NSF_MESSAGE } from './test-cards.js';

/** What the sandbox answers in Converge's words: a stored sale or reversal as fields, and its stock errors. */

export const INVALID_CREDS = convergeError(
  ERROR_CODE.invalidCredentials,
  'Invalid Credentials',
  'The credentials supplied in the authorization request are invalid.',
);
export const SESSION_GONE = convergeError(
  ERROR_CODE.timeOut,
  'Time-Out',
  'The payment session has expired. Please try again.',
);

export const str = (v: unknown) => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');

/** A form post's fields, each a trimmed string. */
export const formFields = (body: unknown): ConvergeFields =>
  Object.fromEntries(Object.entries((body ?? {}) as Record<string, unknown>).map(([k, v]) => [k, str(v)]));

function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

/** The request carries the merchant credentials this gateway accepts (compared in constant time). */
export function credentialsMatch(f: ConvergeFields, c: ConvergeCredentials): boolean {
  return (
    safeEqual(f.ssl_merchant_id ?? '', c.merchantId) &&
    safeEqual(f.ssl_user_id ?? '', c.userId) &&
    safeEqual(f.ssl_pin ?? '', c.pin)
  );
}

const maskedLast4 = (last4: string) => `${'*'.repeat(12)}${last4}`;

/** The issuer's response code for the sandbox's own result messages (approval 00, NSF 51, expired 54). */
const ISSUER_RESPONSE: Record<string, string> = {
  [APPROVAL_MESSAGE]: '00',
  [NSF_MESSAGE]: '51',
  [EXPIRED_MESSAGE]: '54',
};

export function txnFields(t: TxnRow, card?: StoredCard | null): ConvergeFields {
  return {
    ssl_txn_id: t.txn_id,
    ssl_result: t.result,
    ssl_result_message: t.result_message,
    ssl_approval_code: t.approval_code ?? '',
    // Only a verification (ccverify) has no amount.
    ssl_transaction_type: t.amount_cents === 0 ? ANSWER_TYPE.verify : ANSWER_TYPE.sale,
    ssl_trans_status:
      t.result !== RESULT.approved
        ? TRANS_STATUS.declined
        : t.voided_at
          ? TRANS_STATUS.voided
          : isSettled(t)
            ? TRANS_STATUS.settled
            : TRANS_STATUS.pending,
    ssl_amount: convergeAmount(t.amount_cents),
    ssl_card_number: maskedLast4(t.card_last4),
    ssl_card_short_description: CARD_SHORT[t.card_brand] ?? 'CARD',
    ssl_card_type: 'CREDITCARD',
    ssl_merchant_txn_id: t.merchant_txn_id ?? '',
    ssl_first_name: t.first_name ?? '',
    ssl_last_name: t.last_name ?? '',
    ssl_avs_response: t.avs_response ?? '',
    ssl_cvv2_response: t.cvv2_response ?? '',
    ssl_eci_ind: t.eci_ind ?? '',
    ssl_3ds_trans_status: t.three_ds_trans_status ?? '',
    ssl_txn_time: convergeTime(new Date(t.created_at)),
    ssl_issuer_response: ISSUER_RESPONSE[t.result_message] ?? (t.result === RESULT.approved ? '00' : '05'),
    ...(card ? { ssl_token: card.token, ssl_token_response: TOKEN_SUCCESS, ssl_exp_date: card.expiry } : {}),
  };
}

export const reversalFields = (r: ReversalRow, parent: TxnRow): ConvergeFields => ({
  ssl_txn_id: r.txn_id,
  ssl_result: RESULT.approved,
  ssl_result_message: APPROVAL_MESSAGE,
  ssl_transaction_type: r.kind === 'VOID' ? ANSWER_TYPE.void : ANSWER_TYPE.return,
  ssl_trans_status: TRANS_STATUS.pending,
  ssl_amount: convergeAmount(r.amount_cents),
  ssl_card_number: maskedLast4(parent.card_last4),
  ssl_card_short_description: CARD_SHORT[parent.card_brand] ?? 'CARD',
  ssl_approval_code: '',
  ssl_txn_time: convergeTime(new Date(r.created_at)),
});
