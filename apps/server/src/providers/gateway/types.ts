/**
 * The card gateway as the server sees it (Elavon Converge's hosted-payments API, or the sandbox that speaks the same
 * protocol). Card data never passes through here: the browser sends it to the gateway's own script.
 */
export interface SessionTokenRequest {
  amountCents: number;
  /** Our payment attempt id; the gateway echoes it on the transaction (ssl_merchant_txn_id). */
  merchantTxnId: string;
  firstName?: string;
  lastName?: string;
  /**
   * The sale also stores the card for later merchant-initiated charges (ssl_get_token=Y, ssl_add_token=Y): a plan's
   * deposit. Converge asks for the cardholder's first and last name with it.
   */
  storeCard?: boolean;
}

/**
 * A hosted-payments session that verifies and tokenises a card without charging it (ccverify, ssl_get_token=Y,
 * ssl_add_token=Y): a plan's new card (decision 0211). The browser runs 3-D Secure and `pay` with it as for a sale.
 */
export interface CardVerifySessionRequest {
  /** Ours (the card update's id); the gateway echoes it on the verification (ssl_merchant_txn_id). */
  merchantTxnId: string;
  /** Converge asks for the cardholder's names when the card is stored in Card Manager (ssl_add_token=Y). */
  firstName?: string;
  lastName?: string;
}

/** A transaction as the gateway reports it when asked by id (never from the browser's word). */
export interface GatewayTransaction {
  txnId: string;
  approved: boolean;
  resultMessage: string;
  /** null when the gateway did not say (treated as a mismatch). */
  amountCents: number | null;
  merchantTxnId: string | null;
  approvalCode: string | null;
  /** Lower-case scheme name: visa, mastercard, amex, discover, jcb, diners, or the gateway's own word. */
  cardBrand: string | null;
  last4: string | null;
  transactionType: string | null;
  /** Converge's settlement status (STL, PEN, OPN, …) when given. */
  transStatus: string | null;
  /** True when the gateway reports the sale settled (STL): only a return can give money back then. */
  settled: boolean;
  /** AVS, CVV2 and 3-D Secure ECI as the gateway recorded them (dispute evidence); null when not reported. */
  avsResponse?: string | null;
  cvv2Response?: string | null;
  eciInd?: string | null;
  /** 3-D Secure transStatus the sale was authorised with (ssl_3ds_trans_status), when the gateway reports it. */
  threeDSTransStatus?: string | null;
  /** Converge's ssl_txn_time as sent (MM/DD/YYYY hh:mm:ss AM). */
  txnTime?: string | null;
  /** The stored card's token (ssl_token) when the gateway reports one for this sale; never a card number. */
  cardToken?: string | null;
  /** The card's expiry as the gateway reports it, MMYY (ssl_exp_date). */
  cardExpiry?: string | null;
  /** The issuer's response code (ssl_issuer_response, e.g. 51 insufficient funds) when given: why a decline. */
  issuerResponse?: string | null;
  /** The network's data of this sale (ssl_ps2000_data): later merchant-initiated charges refer to it. */
  ps2000Data?: string | null;
  /** An approved card verification (ccverify): nothing was charged; `approved` stays false (it is not a sale). */
  verified?: boolean;
}

/** One merchant-initiated charge of a stored card: an instalment of a plan the cardholder agreed to. */
export interface StoredCardCharge {
  /** The gateway's token for the card (from the deposit's verified transaction). */
  token: string;
  amountCents: number;
  /** Ours, one per instalment and attempt family: how an unknown outcome is found again (findByMerchantTxnId). */
  merchantTxnId: string;
  /** This instalment's number (1-based) and the plan's number of instalments after the deposit. */
  installment: { number: number; count: number };
  /**
   * The first, customer-initiated sale that stored the card (its ssl_approval_code and ssl_ps2000_data): Converge's
   * merchant-managed card tokens page asks for both on every later charge, when known.
   */
  firstSale?: { approvalCode: string | null; ps2000Data?: string | null };
  firstName?: string;
  lastName?: string;
  /**
   * The business clock of the charge (the scheduler's `now`, moved by tests and `plans run --now`). Only the sandbox
   * reads it, to judge the stored card's expiry on that day (decision 0246); the Converge adapter never sends it.
   */
  asOf?: Date;
}

/** The answer to a void (ccvoid) or return (ccreturn): its own transaction id at the gateway. */
export interface GatewayReversal {
  kind: 'void' | 'return';
  txnId: string;
  /** Cents given back: the sale's amount for a void. */
  amountCents: number;
  resultMessage: string;
}

export interface CardGateway {
  readonly kind: 'converge' | 'sandbox';
  /**
   * How long after a request is sent the gateway may still act on it: this adapter's request timeout plus a margin for
   * the gateway's own processing (decision 0237). A sale with no answer is never read as "not charged" before this.
   */
  readonly outcomeWindowMs: number;
  /** A single-use hosted-payments session token for this amount (POST /hosted-payments/transaction_token). */
  createSessionToken(req: SessionTokenRequest): Promise<string>;
  /** A single-use hosted-payments session that verifies and tokenises a card, charging nothing (ccverify). */
  createCardVerifySession(req: CardVerifySessionRequest): Promise<string>;
  /** The transaction by gateway id, or null when the gateway does not know it. */
  queryTransaction(txnId: string): Promise<GatewayTransaction | null>;
  /** Cancels a sale that has not settled yet (Converge ccvoid); the whole amount. GatewayError when refused. */
  voidTransaction(txnId: string): Promise<GatewayReversal>;
  /** Refunds part or all of a settled sale (Converge ccreturn); amount absent = the whole sale. */
  returnTransaction(txnId: string, amountCents?: number): Promise<GatewayReversal>;
  /**
   * Every transaction carrying our ssl_merchant_txn_id (txnquery by merchant transaction id and a date range): how an
   * approval whose browser never reported it is found. Empty when the token was never used.
   */
  findByMerchantTxnId(merchantTxnId: string, since: Date): Promise<GatewayTransaction[]>;
  /**
   * A merchant-initiated sale of a stored card (ccsale with ssl_token and the instalment flags). Resolves with the
   * transaction, approved or declined, when the gateway answered; throws GatewayError with refused=true when it
   * refused the request (nothing was charged) and refused=false when the outcome is unknown (timeout, network, HTTP
   * error): reconcile with findByMerchantTxnId before any retry.
   */
  chargeStoredCard(req: StoredCardCharge): Promise<GatewayTransaction>;
}

/** The gateway could not be reached or refused the request; `code` is Converge's errorCode when it sent one. */
export class GatewayError extends Error {
  constructor(
    message: string,
    readonly code?: string,
    /** true when the gateway answered and refused (nothing happened); false when the outcome is unknown. */
    readonly refused = code !== undefined,
  ) {
    super(message);
    this.name = 'GatewayError';
  }
}
