import { redactGatewayPayload } from '@paylink/shared';
import type { PaymentOutcome } from './run-payment';

const CARD_FIELDS = /^(ssl_card_number|ssl_cvv2cvc2|ssl_exp_date|acctNumber|cardExpiryDate|card_?number|cvc|cvv)$/i;

/**
 * What POST /api/linkpaymenthistory/{linkId}/log receives for a failed attempt: the provider's answer as a JSON
 * string, without card fields (the server redacts again; both sides, because card data must never reach us).
 */
export function paymentLogPayload(outcome: Exclude<PaymentOutcome, { kind: 'approved' }>): string {
  const body =
    outcome.kind === 'threeDSFailed'
      ? { kind: outcome.kind, threeDS: outcome.result }
      : outcome.kind === 'unavailable'
        ? { kind: outcome.kind, reason: outcome.reason }
        : { kind: outcome.kind, ...outcome.response };
  const json = JSON.stringify(body, (key, value: unknown) => (CARD_FIELDS.test(key) ? undefined : value));
  return redactGatewayPayload(json).slice(0, 20_000);
}
