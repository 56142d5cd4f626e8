import { centsToDecimalString, parseDollarsToCents } from '@paylink/shared';
import { XMLParser } from 'fast-xml-parser';
import { escapeXml } from '../../lib/escape.js';
import {
  GatewayError,
  type CardGateway,
  type GatewayReversal,
  type GatewayTransaction,
  type SessionTokenRequest,
} from './types.js';

/**
 * Elavon Converge: hosted-payments session tokens (form-urlencoded POST, plain-text answer) and the XML API's
 * txnquery to verify a transaction by id. Request building and answer parsing are pure functions, tested against
 * answers shaped like Converge's documentation (converge.test.ts).
 */
export interface ConvergeCredentials {
  merchantId: string;
  userId: string;
  pin: string;
}

export interface ConvergeEndpoints {
  /** https://api.demo.convergepay.com or https://api.convergepay.com */
  apiBase: string;
  /** {apiBase}/VirtualMerchantDemo/processxml.do (demo) or {apiBase}/VirtualMerchant/processxml.do */
  xmlUrl: string;
}

const CONVERGE_API_BASES = {
  demo: 'https://api.demo.convergepay.com',
  production: 'https://api.convergepay.com',
} as const;

export function convergeEndpoints(env: 'demo' | 'production', apiBase?: string): ConvergeEndpoints {
  const base = (apiBase ?? CONVERGE_API_BASES[env]).replace(/\/+$/, '');
  return {
    apiBase: base,
    xmlUrl: `${base}/${env === 'demo' ? 'VirtualMerchantDemo' : 'VirtualMerchant'}/processxml.do`,
  };
}

/** Converge names: first/last name are optional and limited to 20 characters each. */
const clip = (v: string | undefined, n: number) =>
  (v ?? '')
    .replace(/[\r\n]+/g, ' ')
    .trim()
    .slice(0, n);

export function buildSessionTokenForm(creds: ConvergeCredentials, req: SessionTokenRequest): URLSearchParams {
  if (!Number.isInteger(req.amountCents) || req.amountCents <= 0) {
    throw new GatewayError('The amount must be a positive number of cents.');
  }
  const form = new URLSearchParams({
    ssl_merchant_id: creds.merchantId,
    ssl_user_id: creds.userId,
    ssl_pin: creds.pin,
    ssl_transaction_type: 'ccsale',
    ssl_amount: centsToDecimalString(req.amountCents),
    ssl_merchant_txn_id: req.merchantTxnId,
    // Also the invoice number (max 25 characters; our ids are 24), which every txnquery answer carries.
    ssl_invoice_number: req.merchantTxnId.slice(0, 25),
  });
  const first = clip(req.firstName, 20);
  const last = clip(req.lastName, 30);
  if (first) form.set('ssl_first_name', first);
  if (last) form.set('ssl_last_name', last);
  return form;
}

/** The XML API takes one `xmldata` form field holding a flat <txn> element. */
export function buildXmlRequest(creds: ConvergeCredentials, type: string, more: [string, string][]): string {
  const fields: [string, string][] = [
    ['ssl_merchant_id', creds.merchantId],
    ['ssl_user_id', creds.userId],
    ['ssl_pin', creds.pin],
    ['ssl_transaction_type', type],
    ...more,
  ];
  return `<txn>${fields.map(([k, v]) => `<${k}>${escapeXml(v)}</${k}>`).join('')}</txn>`;
}

export function buildTxnQueryXml(creds: ConvergeCredentials, txnId: string): string {
  return buildXmlRequest(creds, 'txnquery', [['ssl_txn_id', txnId]]);
}

/** ccvoid (no amount: a void cancels the whole unsettled sale) or ccreturn (ssl_amount for a partial return). */
export function buildReversalXml(
  creds: ConvergeCredentials,
  kind: 'void' | 'return',
  txnId: string,
  amountCents?: number,
): string {
  if (kind === 'void') return buildXmlRequest(creds, 'ccvoid', [['ssl_txn_id', txnId]]);
  if (amountCents !== undefined && (!Number.isInteger(amountCents) || amountCents <= 0)) {
    throw new GatewayError('The amount must be a positive number of cents.');
  }
  return buildXmlRequest(creds, 'ccreturn', [
    ['ssl_txn_id', txnId],
    ...(amountCents !== undefined ? ([['ssl_amount', centsToDecimalString(amountCents)]] as [string, string][]) : []),
  ]);
}

/**
 * A ccvoid/ccreturn answer: one <txn> with ssl_result 0 and its own ssl_txn_id, or an errorCode / a non-zero
 * ssl_result, which are refusals (the gateway answered; nothing was given back).
 */
export function parseReversalAnswer(kind: 'void' | 'return', xml: string, requestedCents?: number): GatewayReversal {
  const f = parseConvergeXml(xml).txns[0] ?? {};
  if (f.errorCode) {
    throw new GatewayError(f.errorMessage || f.errorName || 'The card gateway refused the request.', f.errorCode);
  }
  if (f.ssl_result !== '0' || !f.ssl_txn_id) {
    throw new GatewayError(
      f.ssl_result_message || 'The card gateway declined the request.',
      f.ssl_result ?? 'no_result',
    );
  }
  const amountCents = f.ssl_amount ? parseDollarsToCents(f.ssl_amount) : null;
  return {
    kind,
    txnId: f.ssl_txn_id,
    amountCents: amountCents ?? requestedCents ?? 0,
    resultMessage: f.ssl_result_message ?? '',
  };
}

/** Converge's search date format: MM/DD/YYYY hh:mm:ss AM (UTC). */
function convergeSearchTime(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  const h = d.getUTCHours();
  return `${p(d.getUTCMonth() + 1)}/${p(d.getUTCDate())}/${d.getUTCFullYear()} ${p(h % 12 || 12)}:${p(
    d.getUTCMinutes(),
  )}:${p(d.getUTCSeconds())} ${h < 12 ? 'AM' : 'PM'}`;
}

/** txnquery by our merchant transaction id, within a date range (Converge requires one for searches). */
function buildMerchantTxnQueryXml(creds: ConvergeCredentials, merchantTxnId: string, since: Date, until: Date): string {
  const fields: [string, string][] = [
    ['ssl_merchant_id', creds.merchantId],
    ['ssl_user_id', creds.userId],
    ['ssl_pin', creds.pin],
    ['ssl_transaction_type', 'txnquery'],
    ['ssl_merchant_txn_id', merchantTxnId],
    ['ssl_search_start_date', convergeSearchTime(since)],
    ['ssl_search_end_date', convergeSearchTime(until)],
  ];
  return `<txn>${fields.map(([k, v]) => `<${k}>${escapeXml(v)}</${k}>`).join('')}</txn>`;
}

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
 * Converge's XML answers are flat: `<txnlist><ssl_txn_count>n</ssl_txn_count><txn>…</txn>…</txnlist>` for queries,
 * a single `<txn>` otherwise, and `<txn><errorCode>…</errorCode>…</txn>` for errors. Returns each <txn>'s leaf fields
 * plus the list-level fields. Anything that is not XML (an HTML error page cut short) has neither.
 */
export function parseConvergeXml(xml: string): { list: Record<string, string>; txns: Record<string, string>[] } {
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

const BRANDS: Record<string, string> = {
  VISA: 'visa',
  MC: 'mastercard',
  MASTERCARD: 'mastercard',
  AMEX: 'amex',
  DISC: 'discover',
  DISCOVER: 'discover',
  JCB: 'jcb',
  DINERS: 'diners',
  CUP: 'unionpay',
};

function brandFromConverge(shortDescription: string | undefined): string | null {
  const d = (shortDescription ?? '').trim().toUpperCase();
  if (!d) return null;
  return BRANDS[d] ?? d.toLowerCase();
}

/** Transactions Converge has voided, refused or parked for review: never count them as paid. */
const NOT_PAID_STATUSES = new Set(['FPR', 'PRE', 'VOID', 'VOI', 'DEC', 'PST']);

export function transactionFromConverge(f: Record<string, string>): GatewayTransaction {
  const resultMessage = f.ssl_result_message ?? '';
  const resultOk = f.ssl_result !== undefined ? f.ssl_result === '0' : /^APPROV(AL|ED)$/i.test(resultMessage);
  const type = f.ssl_transaction_type ?? null;
  const transStatus = f.ssl_trans_status ?? null;
  const isSale = !type || /^(SALE|CCSALE)$/i.test(type);
  const amountCents = f.ssl_amount ? parseDollarsToCents(f.ssl_amount) : null;
  const last4 = /(\d{4})\s*$/.exec(f.ssl_card_number ?? '')?.[1] ?? null;
  return {
    txnId: f.ssl_txn_id ?? '',
    approved: resultOk && isSale && !(transStatus && NOT_PAID_STATUSES.has(transStatus.toUpperCase())),
    resultMessage,
    amountCents,
    merchantTxnId: f.ssl_merchant_txn_id || f.ssl_invoice_number || null,
    approvalCode: f.ssl_approval_code || null,
    cardBrand: brandFromConverge(f.ssl_card_short_description),
    last4,
    transactionType: type,
    transStatus,
    // Converge's batch states (as the Hyperswitch Elavon connector maps them): STL settled; PEN, OPN, REV open or
    // under review (still voidable); PST, FPR, PRE refused by a fraud or post-auth rule.
    settled: (transStatus ?? '').toUpperCase() === 'STL',
    avsResponse: f.ssl_avs_response || null,
    cvv2Response: f.ssl_cvv2_response || null,
    eciInd: f.ssl_eci_ind || null,
    threeDSTransStatus: f.ssl_3ds_trans_status || null,
    txnTime: f.ssl_txn_time || null,
  };
}

/** Plain-text token; anything else (HTML error page, JSON/XML error) is a gateway error. */
function parseSessionTokenAnswer(status: number, body: string): string {
  const text = body.trim();
  if (status < 200 || status >= 300) {
    throw new GatewayError(`The card gateway refused the session request (HTTP ${status}).`, errorCodeIn(text));
  }
  if (!/^[A-Za-z0-9+/=_-]{16,1024}$/.test(text)) {
    throw new GatewayError('The card gateway did not return a session token.', errorCodeIn(text));
  }
  return text;
}

function errorCodeIn(text: string): string | undefined {
  return /errorCode["'>:=\s]+"?(\d{3,5})/.exec(text)?.[1];
}

export function createConvergeGateway(opts: {
  credentials: ConvergeCredentials | (() => Promise<ConvergeCredentials>);
  endpoints: ConvergeEndpoints;
  kind?: 'converge' | 'sandbox';
  timeoutMs?: number;
}): CardGateway {
  const timeoutMs = opts.timeoutMs ?? 20_000;
  const creds = async () => (typeof opts.credentials === 'function' ? opts.credentials() : opts.credentials);
  const post = async (url: string, form: URLSearchParams) => {
    try {
      const r = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/plain, application/xml' },
        body: form.toString(),
        signal: AbortSignal.timeout(timeoutMs),
      });
      return { status: r.status, body: await r.text() };
    } catch (err) {
      throw new GatewayError(`The card gateway could not be reached (${(err as Error).name}).`);
    }
  };
  const reverse = async (kind: 'void' | 'return', txnId: string, amountCents?: number) => {
    const xml = buildReversalXml(await creds(), kind, txnId, amountCents);
    const r = await post(opts.endpoints.xmlUrl, new URLSearchParams({ xmldata: xml }));
    if (r.status < 200 || r.status >= 300) {
      // An HTTP error page says nothing about whether the gateway acted: the outcome is unknown.
      throw new GatewayError(`The card gateway answered HTTP ${r.status} to the ${kind}.`, undefined, false);
    }
    return parseReversalAnswer(kind, r.body, amountCents);
  };
  return {
    kind: opts.kind ?? 'converge',
    async createSessionToken(req) {
      const form = buildSessionTokenForm(await creds(), req);
      const r = await post(`${opts.endpoints.apiBase}/hosted-payments/transaction_token`, form);
      return parseSessionTokenAnswer(r.status, r.body);
    },
    async queryTransaction(txnId) {
      const xml = buildTxnQueryXml(await creds(), txnId);
      const r = await post(opts.endpoints.xmlUrl, new URLSearchParams({ xmldata: xml }));
      if (r.status < 200 || r.status >= 300) {
        throw new GatewayError(`The card gateway refused the transaction query (HTTP ${r.status}).`);
      }
      const { list, txns } = parseConvergeXml(r.body);
      const first = txns[0];
      if (first?.errorCode) {
        // 5040 = "Invalid Transaction ID": the gateway does not know it.
        if (first.errorCode === '5040') return null;
        throw new GatewayError(
          first.errorMessage || first.errorName || 'The card gateway answered an error.',
          first.errorCode,
        );
      }
      if (list.ssl_txn_count === '0' || !first) return null;
      const match = txns.map(transactionFromConverge).find((t) => t.txnId === txnId);
      return match ?? null;
    },
    async voidTransaction(txnId) {
      return reverse('void', txnId);
    },
    async returnTransaction(txnId, amountCents) {
      return reverse('return', txnId, amountCents);
    },
    async findByMerchantTxnId(merchantTxnId, since) {
      const from = new Date(since.getTime() - 24 * 3600_000);
      const until = new Date(Date.now() + 24 * 3600_000);
      const xml = buildMerchantTxnQueryXml(await creds(), merchantTxnId, from, until);
      const r = await post(opts.endpoints.xmlUrl, new URLSearchParams({ xmldata: xml }));
      if (r.status < 200 || r.status >= 300) {
        throw new GatewayError(`The card gateway refused the transaction query (HTTP ${r.status}).`);
      }
      const { list, txns } = parseConvergeXml(r.body);
      const first = txns[0];
      if (first?.errorCode) {
        throw new GatewayError(
          first.errorMessage || first.errorName || 'The card gateway answered an error.',
          first.errorCode,
        );
      }
      if (list.ssl_txn_count === '0' || !first) return [];
      // The search may match on other fields too: keep only ours.
      return txns.map(transactionFromConverge).filter((t) => t.merchantTxnId === merchantTxnId);
    },
  };
}
