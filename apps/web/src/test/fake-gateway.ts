import type {
  ConvergeCallbacks,
  ConvergePaymentData,
  GatewayGlobals,
  GatewayResponse,
  ThreeDSRequest,
  ThreeDSResult,
} from '../features/payment/gateway/types';

/**
 * A stand-in for the outside card gateway in unit tests (the product's own sandbox gateway is exercised by the
 * browser tests). Records what the app handed to it and answers as the test says.
 */
export interface FakeGatewayScript {
  efs?: (cb: ConvergeCallbacks) => void;
  threeDS?: (req: ThreeDSRequest) => Promise<ThreeDSResult>;
  pay?: (data: ConvergePaymentData, cb: ConvergeCallbacks) => void;
}

export interface FakeGateway extends GatewayGlobals {
  calls: {
    efs: { ssl_txn_auth_token: string }[];
    sdk: { baseUrl: string; token: string }[];
    threeDS: ThreeDSRequest[];
    pay: ConvergePaymentData[];
  };
}

export const frictionless: ThreeDSResult = {
  transStatus: 'Y',
  eci: '05',
  authenticationValue: 'AAABBBCCC=',
  dsTransID: 'ds-1',
  threeDSServerTransID: 'srv-1',
  messageVersion: '2.2.0',
};

export const approval: GatewayResponse = {
  ssl_result: '0',
  ssl_result_message: 'APPROVAL',
  ssl_approval_code: 'ABC123',
  ssl_txn_id: 'TXN-1',
  ssl_last_name: 'Doe',
  ssl_transaction_type: 'SALE',
  ssl_amount: '500.00',
};

export function fakeGateway(script: FakeGatewayScript = {}): FakeGateway {
  const calls: FakeGateway['calls'] = { efs: [], sdk: [], threeDS: [], pay: [] };
  return {
    calls,
    ConvergeEmbeddedPayment: {
      getEFSToken(data, cb) {
        calls.efs.push(data);
        if (script.efs) script.efs(cb);
        else setTimeout(() => cb.onThreeDSecure2?.({ ssl_3ds2_token: '3ds-token' }), 0);
      },
      pay(data, cb) {
        calls.pay.push(data);
        if (script.pay) script.pay(data, cb);
        else setTimeout(() => cb.onApproval?.(approval), 0);
      },
    },
    Elavon3DSWebSDK: class {
      constructor(options: { baseUrl: string; token: string }) {
        calls.sdk.push(options);
      }
      web3dsFlow(req: ThreeDSRequest) {
        calls.threeDS.push(req);
        return script.threeDS ? script.threeDS(req) : Promise.resolve(frictionless);
      }
    },
  };
}
