import { eciToSslEciInd, isThreeDSFailure } from '@paylink/shared';
import { withContainedChallenge } from '../../../lib/focus';
import type { CardForm } from '../card-form';
import { expiryToYYMM, splitFullName } from '../card-rules';
import type { GatewayGlobals, GatewayResponse, ThreeDSRequest, ThreeDSResult } from './types';

export type PaymentOutcome =
  /** onApproval: the gateway says approved; our server still verifies it (PUT /api/linkpaymenthistory). */
  | { kind: 'approved'; response: GatewayResponse }
  /** onDeclined from getEFSToken or pay. */
  | { kind: 'declined'; response: GatewayResponse }
  /** onError from getEFSToken or pay (errorCode / errorMessage). */
  | { kind: 'error'; response: GatewayResponse }
  /** 3-D Secure ended R, U or N (or without a status): no payment was attempted. */
  | { kind: 'threeDSFailed'; result: ThreeDSResult }
  /** A gateway script threw or never answered (network, blocked script): nothing was charged. */
  | { kind: 'unavailable'; reason: string };

export interface RunPaymentOptions {
  gateway: GatewayGlobals;
  threeDSBaseUrl: string;
  /** The session token our server got from the gateway (POST /api/converge). */
  sessionToken: string;
  amountCents: number;
  card: CardForm;
}

type EfsResult = { ok: true; token: string } | { ok: false; outcome: PaymentOutcome };

function getThreeDSToken(gateway: GatewayGlobals, sessionToken: string): Promise<EfsResult> {
  return new Promise((resolve) => {
    gateway.ConvergeEmbeddedPayment.getEFSToken(
      { ssl_txn_auth_token: sessionToken },
      {
        onThreeDSecure2: (r) =>
          r?.ssl_3ds2_token
            ? resolve({ ok: true, token: r.ssl_3ds2_token })
            : resolve({ ok: false, outcome: { kind: 'error', response: r ?? {} } }),
        onDeclined: (r) => resolve({ ok: false, outcome: { kind: 'declined', response: r ?? {} } }),
        onError: (e) => resolve({ ok: false, outcome: { kind: 'error', response: e ?? {} } }),
        onApproval: (r) => resolve({ ok: false, outcome: { kind: 'error', response: r ?? {} } }),
      },
    );
  });
}

function pay(gateway: GatewayGlobals, opts: RunPaymentOptions, threeDS: ThreeDSResult): Promise<PaymentOutcome> {
  const { first, last } = splitFullName(opts.card.FullName);
  return new Promise((resolve) => {
    gateway.ConvergeEmbeddedPayment.pay(
      {
        ssl_txn_auth_token: opts.sessionToken,
        ssl_card_number: opts.card.CardNumber,
        ssl_exp_date: opts.card.ExpirationDate,
        ssl_get_token: 'Y',
        ssl_add_token: 'Y',
        ssl_first_name: first,
        ssl_last_name: last,
        ssl_cvv2cvc2: opts.card.Cvc,
        ssl_avs_address: opts.card.BillingAddress.trim(),
        ssl_avs_zip: opts.card.BillingZip.trim(),
        ssl_city: opts.card.BillingCity.trim(),
        ssl_program_protocol: '2',
        ssl_dir_server_tran_id: threeDS.dsTransID ?? '',
        ssl_eci_ind: eciToSslEciInd(threeDS.eci),
        ssl_3dsecure_value: threeDS.authenticationValue ?? '',
        ssl_3ds_message_version: threeDS.messageVersion ?? '',
        ssl_3ds_trans_status: threeDS.transStatus ?? '',
        ssl_3ds_trans_status_reason: threeDS.transStatusReason ?? '',
        ssl_3ds_server_trans_id: threeDS.threeDSServerTransID ?? '',
        // The session token is bound to our payment attempt; the gateway knows our merchant txn id from it.
        ssl_merchant_txn_id: '',
      },
      {
        onApproval: (r) => resolve({ kind: 'approved', response: r ?? {} }),
        onDeclined: (r) => resolve({ kind: 'declined', response: r ?? {} }),
        onError: (e) => resolve({ kind: 'error', response: e ?? {} }),
      },
    );
  });
}

/**
 * The browser half of a card payment (spec section 4): 3-D Secure token → web3dsFlow (lightbox) → pay.
 * Card data goes to the gateway's scripts only; what comes back is an outcome for the page to act on.
 */
export async function runPayment(opts: RunPaymentOptions): Promise<PaymentOutcome> {
  try {
    const efs = await getThreeDSToken(opts.gateway, opts.sessionToken);
    if (!efs.ok) return efs.outcome;
    const sdk = new opts.gateway.Elavon3DSWebSDK({ baseUrl: opts.threeDSBaseUrl, token: efs.token });
    const request: ThreeDSRequest = {
      messageId: 'EFSTransaction',
      purchaseAmount: String(opts.amountCents),
      purchaseCurrency: '840',
      purchaseExponent: '2',
      acctNumber: opts.card.CardNumber,
      cardExpiryDate: expiryToYYMM(opts.card.ExpirationDate),
      messageCategory: '01',
      transType: '01',
      challengeWindowSize: '02',
      displayMode: 'lightbox',
    };
    // The SDK's challenge lightbox holds keyboard focus, the page behind it inert (issue 29, item 5; decision 0220);
    // focus comes back to what had it (the page's status), else to the page's heading.
    const result =
      (await withContainedChallenge(
        () => sdk.web3dsFlow(request),
        () => document.querySelector<HTMLElement>('main h1, h1'),
      )) ?? {};
    if (isThreeDSFailure(result.transStatus)) return { kind: 'threeDSFailed', result };
    return await pay(opts.gateway, opts, result);
  } catch (e) {
    return { kind: 'unavailable', reason: e instanceof Error ? e.message : String(e) };
  }
}
