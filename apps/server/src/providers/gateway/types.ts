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
}

export interface CardGateway {
  readonly kind: 'converge' | 'sandbox';
  /** A single-use hosted-payments session token for this amount (POST /hosted-payments/transaction_token). */
  createSessionToken(req: SessionTokenRequest): Promise<string>;
  /** The transaction by gateway id, or null when the gateway does not know it. */
  queryTransaction(txnId: string): Promise<GatewayTransaction | null>;
  /**
   * Every transaction carrying our ssl_merchant_txn_id (txnquery by merchant transaction id and a date range): how an
   * approval whose browser never reported it is found. Empty when the token was never used.
   */
  findByMerchantTxnId(merchantTxnId: string, since: Date): Promise<GatewayTransaction[]>;
}

/** The gateway could not be reached or refused the request; `code` is Converge's errorCode when it sent one. */
export class GatewayError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'GatewayError';
  }
}
