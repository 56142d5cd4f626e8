import { centsToDecimalString, parseDollarsToCents } from '@paylink/shared';
import { XMLParser } from 'fast-xml-parser';
import { escapeXml } from '../../lib/escape.js';

/**
 * Elavon Converge's wire protocol, spelled once for both sides of it: the adapter that calls Converge (converge.ts)
 * and the sandbox gateway that answers like it (sandbox/gateway). Field names, paths, transaction types, result and
 * status codes, and the XML API's encoding (`xmldata=<txn>…</txn>` form posts, flat `<txn>`/`<txnlist>` answers).
 * Pure: no I/O, no errors of our own (each side decides what a refusal means to it).
 */

/** Every field either side reads or writes; a misspelt one is a type error on both. */
export type ConvergeField =
  | 'ssl_merchant_id'
  | 'ssl_user_id'
  | 'ssl_pin'
  | 'ssl_transaction_type'
  | 'ssl_txn_id'
  | 'ssl_txn_auth_token'
  | 'ssl_txn_count'
  | 'ssl_txn_time'
  | 'ssl_amount'
  | 'ssl_result'
  | 'ssl_result_message'
  | 'ssl_approval_code'
  | 'ssl_trans_status'
  | 'ssl_card_number'
  | 'ssl_card_short_description'
  | 'ssl_card_type'
  | 'ssl_exp_date'
  | 'ssl_merchant_txn_id'
  | 'ssl_invoice_number'
  | 'ssl_first_name'
  | 'ssl_last_name'
  | 'ssl_avs_response'
  | 'ssl_cvv2_response'
  | 'ssl_eci_ind'
  | 'ssl_3ds_server_trans_id'
  | 'ssl_3ds_trans_status'
  | 'ssl_get_token'
  | 'ssl_add_token'
  | 'ssl_token'
  | 'ssl_token_response'
  | 'ssl_recurring_flag'
  | 'ssl_payment_number'
  | 'ssl_payment_count'
  | 'ssl_ps2000_data'
  | 'ssl_issuer_response'
  | 'ssl_search_start_date'
  | 'ssl_search_end_date'
  | 'errorCode'
  // The sandbox's own (SANDBOX_CLOCK_FIELD): never sent to Converge.
  | 'sandbox_now'
  | 'errorName'
  | 'errorMessage';

/** One request or one answer's `<txn>`: each value a string as sent ("0", "0042", "12.30"). */
export type ConvergeFields = { [K in ConvergeField]?: string };

export const CONVERGE_PATHS = {
  /** Hosted payments: form-urlencoded POST, the session token as plain text. */
  sessionToken: '/hosted-payments/transaction_token',
  xmlApiDemo: '/VirtualMerchantDemo/processxml.do',
  xmlApi: '/VirtualMerchant/processxml.do',
} as const;

/** The XML API's one form field. */
export const XMLDATA_FIELD = 'xmldata';

/**
 * The sandbox's own field on a stored-card sale: the business clock of the charge (ISO time), by which the sandbox
 * judges the card's expiry, as the bank would on that day (decision 0246). Never sent to Converge.
 */
export const SANDBOX_CLOCK_FIELD = 'sandbox_now';

/** ssl_transaction_type in requests (ccsettle is the sandbox's own: Converge settles on its schedule). */
export const TXN_TYPE = {
  sale: 'ccsale',
  /** A card verification without a charge; with ssl_get_token=Y it tokenises the card (a plan's card update). */
  verify: 'ccverify',
  void: 'ccvoid',
  return: 'ccreturn',
  query: 'txnquery',
  settle: 'ccsettle',
} as const;

/** ssl_transaction_type in answers. */
export const ANSWER_TYPE = { sale: 'SALE', verify: 'VERIFY', void: 'VOID', return: 'RETURN' } as const;

export const RESULT = { approved: '0', declined: '1' } as const;

/** Converge's Y/N indicators (ssl_get_token, ssl_add_token). */
export const YES = 'Y';
/** ssl_token_response when the token was generated (and stored, with ssl_add_token=Y). */
export const TOKEN_SUCCESS = 'SUCCESS';

/**
 * ssl_recurring_flag on a merchant-initiated ccsale with a stored card (Converge's merchant-managed card tokens):
 * 1 recurring (no fixed end), 2 instalment (a known number of payments: send ssl_payment_number and
 * ssl_payment_count).
 */
export const RECURRING_FLAG = { recurring: '1', installment: '2' } as const;
export const APPROVAL_MESSAGE = 'APPROVAL';

/**
 * ssl_trans_status (as the Hyperswitch Elavon connector maps them): STL settled; PEN, OPN, REV open or under review
 * (still voidable); PST, FPR, PRE refused by a fraud or post-auth rule.
 */
export const TRANS_STATUS = { settled: 'STL', pending: 'PEN', voided: 'VOID', declined: 'DEC' } as const;
/** Transactions Converge has voided, refused or parked for review: never count them as paid. */
export const NOT_PAID_STATUSES: ReadonlySet<string> = new Set(['FPR', 'PRE', 'VOID', 'VOI', 'DEC', 'PST']);

export const ERROR_CODE = {
  requiredField: '4009',
  timeOut: '4017',
  invalidCredentials: '4025',
  invalidCard: '5000',
  /** "Invalid Transaction ID": the gateway does not know it (or not for this transaction type). */
  invalidTxnId: '5040',
} as const;

export interface ConvergeCredentials {
  merchantId: string;
  userId: string;
  pin: string;
}

/** ssl_card_short_description by our lower-case brand. */
export const CARD_SHORT: Readonly<Record<string, string>> = {
  visa: 'VISA',
  mastercard: 'MC',
  amex: 'AMEX',
  discover: 'DISC',
  jcb: 'JCB',
  diners: 'DINERS',
};
const BRAND_BY_SHORT: Record<string, string> = {
  ...Object.fromEntries(Object.entries(CARD_SHORT).map(([brand, short]) => [short, brand])),
  MASTERCARD: 'mastercard',
  DISCOVER: 'discover',
  CUP: 'unionpay',
};

/** Our lower-case brand from ssl_card_short_description (an unknown word is kept, lower-cased). */
export function brandFromConverge(shortDescription: string | undefined): string | null {
  const d = (shortDescription ?? '').trim().toUpperCase();
  if (!d) return null;
  return BRAND_BY_SHORT[d] ?? d.toLowerCase();
}

/** Amounts travel as dollars with 2 decimals. */
export const convergeAmount = (cents: number): string => centsToDecimalString(cents);
export const centsFromConverge = (amount: string): number | null => parseDollarsToCents(amount);

/** Converge's time format (ssl_txn_time, search dates): MM/DD/YYYY hh:mm:ss AM, UTC here. */
export function convergeTime(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  const h = d.getUTCHours();
  return `${p(d.getUTCMonth() + 1)}/${p(d.getUTCDate())}/${d.getUTCFullYear()} ${p(h % 12 || 12)}:${p(
    d.getUTCMinutes(),
  )}:${p(d.getUTCSeconds())} ${h < 12 ? 'AM' : 'PM'}`;
}

/** A flat `<txn>` element, fields in the given order; absent values are left out. */
export function encodeTxn(fields: ConvergeFields): string {
  return `<txn>${Object.entries(fields)
    .filter((e): e is [string, string] => e[1] !== undefined)
    .map(([k, v]) => `<${k}>${escapeXml(v)}</${k}>`)
    .join('')}</txn>`;
}

/** A query's answer: `<txnlist><ssl_txn_count>n</ssl_txn_count><txn>…</txn>…</txnlist>`. */
export function encodeTxnList(txns: ConvergeFields[]): string {
  return `<txnlist><ssl_txn_count>${txns.length}</ssl_txn_count>${txns.map(encodeTxn).join('')}</txnlist>`;
}

/** Converge's error shape (JSON from hosted payments, a `<txn>` from the XML API). */
export interface ConvergeError {
  errorCode: string;
  errorName: string;
  errorMessage: string;
}
export const convergeError = (errorCode: string, errorName: string, errorMessage: string): ConvergeError => ({
  errorCode,
  errorName,
  errorMessage,
});

/** Every request starts with the merchant's credentials (the sandbox checks the same three). */
export const credentialFields = (creds: ConvergeCredentials): ConvergeFields => ({
  ssl_merchant_id: creds.merchantId,
  ssl_user_id: creds.userId,
  ssl_pin: creds.pin,
});

/** An XML API request: credentials and type first, then the transaction's own fields. */
export function buildXmlRequest(creds: ConvergeCredentials, type: string, more: ConvergeFields = {}): string {
  return encodeTxn({
    ...credentialFields(creds),
    ssl_transaction_type: type,
    ...more,
  });
}

/** The form body an XML request travels in. */
export const xmlRequestForm = (xml: string): URLSearchParams => new URLSearchParams({ [XMLDATA_FIELD]: xml });

// Converge answers are data, not documents: every value stays a string ("0", "0042", "12.30"), attributes are
// ignored, CDATA and entities are decoded by the parser, and <txn> is always a list.
const xmlParser = new XMLParser({
  parseTagValue: false,
  ignoreAttributes: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  trimValues: true,
  htmlEntities: true,
  isArray: (name) => name === 'txn',
});

/** The leaf fields of one element; nested elements (Converge sends none) are not fields. */
function leafFields(node: unknown, skip?: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!node || typeof node !== 'object') return out;
  for (const [k, v] of Object.entries(node as Record<string, unknown>)) {
    if (k === skip) continue;
    const first = Array.isArray(v) ? v[0] : v;
    if (typeof first === 'string') out[k] = first;
  }
  return out;
}

/**
 * Converge's XML is flat: `<txnlist><ssl_txn_count>n</ssl_txn_count><txn>…</txn>…</txnlist>` for query answers, a
 * single `<txn>` for requests and other answers, and `<txn><errorCode>…</errorCode>…</txn>` for errors. Returns each
 * <txn>'s leaf fields plus the list-level fields. Anything that is not XML (an HTML error page cut short) has neither.
 */
export function parseConvergeXml(xml: string): { list: ConvergeFields; txns: ConvergeFields[] } {
  let doc: Record<string, unknown>;
  try {
    doc = xmlParser.parse(xml) as Record<string, unknown>;
  } catch {
    return { list: {}, txns: [] };
  }
  const rootName = Object.keys(doc)[0];
  if (rootName === undefined) return { list: {}, txns: [] };
  const root = doc[rootName];
  if (rootName === 'txn') return { list: {}, txns: (root as unknown[]).map((t) => leafFields(t)) };
  const txns = (root && typeof root === 'object' ? ((root as { txn?: unknown[] }).txn ?? []) : []).map((t) =>
    leafFields(t),
  );
  return { list: leafFields(root, 'txn'), txns };
}
