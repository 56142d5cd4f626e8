import {
  ANSWER_TYPE,
  CONVERGE_PATHS,
  ERROR_CODE,
  NOT_PAID_STATUSES,
  RECURRING_FLAG,
  RESULT,
  SANDBOX_CLOCK_FIELD,
  TRANS_STATUS,
  TOKEN_SUCCESS,
  TXN_TYPE,
  YES,
  brandFromConverge,
  buildXmlRequest,
  centsFromConverge,
  convergeAmount,
  convergeTime,
  credentialFields,
  parseConvergeXml,
  xmlRequestForm,
  type ConvergeCredentials,
  type ConvergeFields,
} from './converge-protocol.js';
import {
  GatewayError,
  type CardGateway,
  type GatewayReversal,
  type CardVerifySessionRequest,
  type GatewayTransaction,
  type SessionTokenRequest,
  type StoredCardCharge,
} from './types.js';

export type { ConvergeCredentials } from './converge-protocol.js';

/**
 * Elavon Converge: hosted-payments session tokens (form-urlencoded POST, plain-text answer) and the XML API's
 * txnquery to verify a transaction by id. The wire format (fields, XML) is converge-protocol.ts, shared with the
 * sandbox gateway; what an answer means to us is here, tested against answers shaped like Converge's documentation
 * (converge.test.ts).
 */
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
    xmlUrl: `${base}${env === 'demo' ? CONVERGE_PATHS.xmlApiDemo : CONVERGE_PATHS.xmlApi}`,
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
  const first = clip(req.firstName, 20);
  const last = clip(req.lastName, 30);
  const fields: ConvergeFields = {
    ...credentialFields(creds),
    ssl_transaction_type: TXN_TYPE.sale,
    ssl_amount: convergeAmount(req.amountCents),
    ssl_merchant_txn_id: req.merchantTxnId,
    // Also the invoice number (max 25 characters; our ids are 24), which every txnquery answer carries.
    ssl_invoice_number: req.merchantTxnId.slice(0, 25),
    ...(first ? { ssl_first_name: first } : {}),
    ...(last ? { ssl_last_name: last } : {}),
    // A plan's deposit: the sale returns a token and stores it in Converge's Card Manager.
    ...(req.storeCard ? { ssl_get_token: YES, ssl_add_token: YES } : {}),
  };
  return new URLSearchParams(fields as Record<string, string>);
}

/**
 * A card verification that stores the card (decision 0211): ccverify charges nothing (ssl_amount 0.00) and, with
 * ssl_get_token=Y and ssl_add_token=Y, returns the Card Manager token and the network data (ssl_approval_code,
 * ssl_ps2000_data) that later merchant-initiated sales quote, as a deposit sale does (Converge's merchant-managed card
 * tokens page lists CCVERIFY / CCSALE / CCAUTHONLY as the ways to put a card on file; Lightbox and hosted payments
 * take ccverify).
 */
export function buildVerifySessionForm(creds: ConvergeCredentials, req: CardVerifySessionRequest): URLSearchParams {
  const first = clip(req.firstName, 20);
  const last = clip(req.lastName, 30);
  const fields: ConvergeFields = {
    ...credentialFields(creds),
    ssl_transaction_type: TXN_TYPE.verify,
    ssl_amount: convergeAmount(0),
    ssl_merchant_txn_id: req.merchantTxnId,
    ssl_invoice_number: req.merchantTxnId.slice(0, 25),
    ...(first ? { ssl_first_name: first } : {}),
    ...(last ? { ssl_last_name: last } : {}),
    ssl_get_token: YES,
    ssl_add_token: YES,
  };
  return new URLSearchParams(fields as Record<string, string>);
}

/**
 * A merchant-initiated instalment: ccsale with the stored card's token (no card number, no expiry: Card Manager's
 * are used), ssl_recurring_flag=2 with this payment's number and the count, the first sale's approval code and
 * network data when known, and our merchant transaction id (also the invoice number, as on the deposit).
 */
export function buildStoredCardSaleXml(
  creds: ConvergeCredentials,
  req: StoredCardCharge,
  o: { sandbox?: boolean } = {},
): string {
  if (!Number.isInteger(req.amountCents) || req.amountCents <= 0) {
    throw new GatewayError('The amount must be a positive number of cents.');
  }
  const { number, count } = req.installment;
  if (!Number.isInteger(number) || !Number.isInteger(count) || number < 1 || count < number) {
    throw new GatewayError('The installment number must be between 1 and the number of installments.');
  }
  if (!/^[A-Za-z0-9]{1,20}$/.test(req.token)) throw new GatewayError('The card token is not a Converge token.');
  const first = clip(req.firstName, 20);
  const last = clip(req.lastName, 30);
  return buildXmlRequest(creds, TXN_TYPE.sale, {
    ssl_amount: convergeAmount(req.amountCents),
    ssl_token: req.token,
    ssl_recurring_flag: RECURRING_FLAG.installment,
    ssl_payment_number: String(number),
    ssl_payment_count: String(count),
    ...(req.firstSale?.approvalCode ? { ssl_approval_code: req.firstSale.approvalCode } : {}),
    ...(req.firstSale?.ps2000Data ? { ssl_ps2000_data: req.firstSale.ps2000Data } : {}),
    ssl_merchant_txn_id: req.merchantTxnId,
    ssl_invoice_number: req.merchantTxnId.slice(0, 25),
    ...(first ? { ssl_first_name: first } : {}),
    ...(last ? { ssl_last_name: last } : {}),
    // The sandbox's clock only (decision 0246): Converge judges the card by the bank's own day.
    ...(o.sandbox && req.asOf ? { [SANDBOX_CLOCK_FIELD]: req.asOf.toISOString() } : {}),
  });
}

/**
 * A ccsale answer: one <txn> with ssl_result (approved or declined: both are answers), or errorCode (a refusal:
 * nothing was charged). Anything else (an HTML page, a cut-off body) says nothing about the charge: unknown.
 */
export function parseStoredCardSaleAnswer(xml: string): GatewayTransaction {
  const f = parseConvergeXml(xml).txns[0];
  if (f?.errorCode) {
    throw new GatewayError(f.errorMessage || f.errorName || 'The card gateway refused the charge.', f.errorCode);
  }
  if (!f || f.ssl_result === undefined || !f.ssl_txn_id) {
    throw new GatewayError('The card gateway gave no readable answer to the charge.', undefined, false);
  }
  return transactionFromConverge({ ssl_transaction_type: ANSWER_TYPE.sale, ...f });
}

export function buildTxnQueryXml(creds: ConvergeCredentials, txnId: string): string {
  return buildXmlRequest(creds, TXN_TYPE.query, { ssl_txn_id: txnId });
}

/** ccvoid (no amount: a void cancels the whole unsettled sale) or ccreturn (ssl_amount for a partial return). */
export function buildReversalXml(
  creds: ConvergeCredentials,
  kind: 'void' | 'return',
  txnId: string,
  amountCents?: number,
): string {
  if (kind === 'void') return buildXmlRequest(creds, TXN_TYPE.void, { ssl_txn_id: txnId });
  if (amountCents !== undefined && (!Number.isInteger(amountCents) || amountCents <= 0)) {
    throw new GatewayError('The amount must be a positive number of cents.');
  }
  return buildXmlRequest(creds, TXN_TYPE.return, {
    ssl_txn_id: txnId,
    ...(amountCents !== undefined ? { ssl_amount: convergeAmount(amountCents) } : {}),
  });
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
  if (f.ssl_result !== RESULT.approved || !f.ssl_txn_id) {
    throw new GatewayError(
      f.ssl_result_message || 'The card gateway declined the request.',
      f.ssl_result ?? 'no_result',
    );
  }
  const amountCents = f.ssl_amount ? centsFromConverge(f.ssl_amount) : null;
  return {
    kind,
    txnId: f.ssl_txn_id,
    amountCents: amountCents ?? requestedCents ?? 0,
    resultMessage: f.ssl_result_message ?? '',
  };
}

/** txnquery by our merchant transaction id, within a date range (Converge requires one for searches). */
function buildMerchantTxnQueryXml(creds: ConvergeCredentials, merchantTxnId: string, since: Date, until: Date): string {
  return buildXmlRequest(creds, TXN_TYPE.query, {
    ssl_merchant_txn_id: merchantTxnId,
    ssl_search_start_date: convergeTime(since),
    ssl_search_end_date: convergeTime(until),
  });
}

export function transactionFromConverge(f: ConvergeFields): GatewayTransaction {
  const resultMessage = f.ssl_result_message ?? '';
  const resultOk =
    f.ssl_result !== undefined ? f.ssl_result === RESULT.approved : /^APPROV(AL|ED)$/i.test(resultMessage);
  const type = f.ssl_transaction_type ?? null;
  const transStatus = f.ssl_trans_status ?? null;
  const isSale = !type || type.toUpperCase() === ANSWER_TYPE.sale || type.toLowerCase() === TXN_TYPE.sale;
  const isVerify = !!type && (type.toUpperCase() === ANSWER_TYPE.verify || type.toLowerCase() === TXN_TYPE.verify);
  const amountCents = f.ssl_amount ? centsFromConverge(f.ssl_amount) : null;
  const last4 = /(\d{4})\s*$/.exec(f.ssl_card_number ?? '')?.[1] ?? null;
  const tokenOk = !f.ssl_token_response || f.ssl_token_response.toUpperCase() === TOKEN_SUCCESS;
  const cardToken = f.ssl_token && tokenOk ? f.ssl_token : null;
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
    settled: (transStatus ?? '').toUpperCase() === TRANS_STATUS.settled,
    avsResponse: f.ssl_avs_response || null,
    cvv2Response: f.ssl_cvv2_response || null,
    eciInd: f.ssl_eci_ind || null,
    threeDSTransStatus: f.ssl_3ds_trans_status || null,
    txnTime: f.ssl_txn_time || null,
    // Present only when the gateway reported them, so answers without a stored card read as before.
    ...(cardToken
      ? { cardToken, cardExpiry: /^(0[1-9]|1[0-2])\d{2}$/.test(f.ssl_exp_date ?? '') ? f.ssl_exp_date : null }
      : {}),
    ...(f.ssl_issuer_response ? { issuerResponse: f.ssl_issuer_response } : {}),
    ...(f.ssl_ps2000_data ? { ps2000Data: f.ssl_ps2000_data } : {}),
    ...(isVerify ? { verified: resultOk && !(transStatus && NOT_PAID_STATUSES.has(transStatus.toUpperCase())) } : {}),
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

/** How long past our request timeout the gateway may still act on a request (decision 0237). */
export const GATEWAY_PROCESSING_MARGIN_MS = 120_000;

export function createConvergeGateway(opts: {
  credentials: ConvergeCredentials | (() => Promise<ConvergeCredentials>);
  endpoints: ConvergeEndpoints;
  kind?: 'converge' | 'sandbox';
  timeoutMs?: number;
}): CardGateway {
  const timeoutMs = opts.timeoutMs ?? 20_000;
  // Past our timeout the gateway may still be working on the request (decision 0237): its own processing and
  // hand-off to the card network, bounded well inside this margin.
  const outcomeWindowMs = timeoutMs + GATEWAY_PROCESSING_MARGIN_MS;
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
    const r = await post(opts.endpoints.xmlUrl, xmlRequestForm(xml));
    if (r.status < 200 || r.status >= 300) {
      // An HTTP error page says nothing about whether the gateway acted: the outcome is unknown.
      throw new GatewayError(`The card gateway answered HTTP ${r.status} to the ${kind}.`, undefined, false);
    }
    return parseReversalAnswer(kind, r.body, amountCents);
  };
  return {
    kind: opts.kind ?? 'converge',
    outcomeWindowMs,
    async createSessionToken(req) {
      const form = buildSessionTokenForm(await creds(), req);
      const r = await post(`${opts.endpoints.apiBase}${CONVERGE_PATHS.sessionToken}`, form);
      return parseSessionTokenAnswer(r.status, r.body);
    },
    async createCardVerifySession(req) {
      const form = buildVerifySessionForm(await creds(), req);
      const r = await post(`${opts.endpoints.apiBase}${CONVERGE_PATHS.sessionToken}`, form);
      return parseSessionTokenAnswer(r.status, r.body);
    },
    async queryTransaction(txnId) {
      const xml = buildTxnQueryXml(await creds(), txnId);
      const r = await post(opts.endpoints.xmlUrl, xmlRequestForm(xml));
      if (r.status < 200 || r.status >= 300) {
        throw new GatewayError(`The card gateway refused the transaction query (HTTP ${r.status}).`);
      }
      const { list, txns } = parseConvergeXml(r.body);
      const first = txns[0];
      if (first?.errorCode) {
        if (first.errorCode === ERROR_CODE.invalidTxnId) return null;
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
      const r = await post(opts.endpoints.xmlUrl, xmlRequestForm(xml));
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
    async chargeStoredCard(req) {
      const xml = buildStoredCardSaleXml(await creds(), req, { sandbox: opts.kind === 'sandbox' });
      const r = await post(opts.endpoints.xmlUrl, xmlRequestForm(xml));
      if (r.status < 200 || r.status >= 300) {
        // A 5xx from a proxy or an overloaded gateway may come after the sale ran: unknown, never a refusal.
        throw new GatewayError(`The card gateway answered HTTP ${r.status} to the charge.`, undefined, false);
      }
      return parseStoredCardSaleAnswer(r.body);
    },
  };
}
