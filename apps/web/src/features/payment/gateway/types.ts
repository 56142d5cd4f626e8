/**
 * The browser API of Converge's Checkout.js and Elavon's 3-D Secure 2 web SDK, as far as this app uses it
 * (shapes from the providers' docs: ../../../../../../shared/notes/providers.md). The sandbox gateway serves scripts
 * with the same API.
 */

/** Any answer the gateway hands to a callback: ssl_* fields, or errorCode/errorName/errorMessage. */
export interface GatewayResponse {
  ssl_result?: string;
  ssl_result_message?: string;
  ssl_cvv2_response?: string;
  ssl_avs_response?: string;
  ssl_approval_code?: string;
  ssl_txn_id?: string;
  ssl_token?: string;
  ssl_token_response?: string;
  ssl_transaction_type?: string;
  ssl_amount?: string;
  ssl_last_name?: string;
  ssl_3ds2_token?: string;
  errorCode?: string | number;
  errorName?: string;
  errorMessage?: string;
  [key: string]: unknown;
}

export interface ConvergeCallbacks {
  onError?: (error: GatewayResponse) => void;
  onDeclined?: (response: GatewayResponse) => void;
  onApproval?: (response: GatewayResponse) => void;
  onThreeDSecure2?: (response: GatewayResponse) => void;
}

/** The spec's "payment provider fields sent" (section 3). */
export interface ConvergePaymentData {
  ssl_txn_auth_token: string;
  ssl_card_number: string;
  ssl_exp_date: string;
  ssl_get_token: 'Y' | 'N';
  ssl_add_token: 'Y' | 'N';
  ssl_first_name: string;
  ssl_last_name: string;
  ssl_cvv2cvc2: string;
  ssl_avs_address: string;
  ssl_avs_zip: string;
  ssl_city: string;
  ssl_program_protocol: '2';
  ssl_dir_server_tran_id: string;
  ssl_eci_ind: string;
  ssl_3dsecure_value: string;
  ssl_3ds_message_version: string;
  ssl_3ds_trans_status: string;
  ssl_3ds_trans_status_reason: string;
  ssl_3ds_server_trans_id: string;
  ssl_merchant_txn_id: string;
}

export interface ConvergeEmbeddedPayment {
  getEFSToken(data: { ssl_txn_auth_token: string }, callbacks: ConvergeCallbacks): void;
  pay(data: ConvergePaymentData, callbacks: ConvergeCallbacks): void;
}

export interface ThreeDSRequest {
  messageId: string;
  purchaseAmount: string;
  purchaseCurrency: string;
  purchaseExponent: string;
  acctNumber: string;
  cardExpiryDate: string;
  messageCategory: string;
  transType: string;
  challengeWindowSize: string;
  displayMode: 'lightbox' | 'inline';
}

export interface ThreeDSResult {
  transStatus?: string;
  transStatusReason?: string;
  eci?: string;
  authenticationValue?: string;
  dsTransID?: string;
  threeDSServerTransID?: string;
  messageVersion?: string;
  authenticated?: boolean;
  acsTransID?: string;
  [key: string]: unknown;
}

export interface Elavon3DSWebSDK {
  web3dsFlow(request: ThreeDSRequest): Promise<ThreeDSResult>;
}

export type Elavon3DSWebSDKConstructor = new (options: { baseUrl: string; token: string }) => Elavon3DSWebSDK;

/** The two globals the gateway scripts define. */
export interface GatewayGlobals {
  ConvergeEmbeddedPayment: ConvergeEmbeddedPayment;
  Elavon3DSWebSDK: Elavon3DSWebSDKConstructor;
}
