import { redactGatewayPayload } from '@paylink/shared';
import type { PaymentOutcome } from './run-payment';

/** Never logged: security codes and expiry dates. */
const SECRET_FIELDS = /^(ssl_cvv2cvc2|cvv2cvc2|ssl_exp_date|cardExpiryDate|exp_?date|cvc|cvv)$/i;
/** Logged as their last 4 digits only (support needs to know which card was declined). */
const NUMBER_FIELDS = /^(ssl_card_number|acctNumber|card_?number)$/i;

const last4 = (value: unknown) => {
  const digits = String(value ?? '').replace(/\D+/g, '');
  return digits.length >= 4 ? `************${digits.slice(-4)}` : undefined;
};

/**
 * What POST /api/linkpaymenthistory/{linkId}/log receives for a failed attempt: the provider's answer as a JSON
 * string, card numbers cut to their last 4, no CVC or expiry (the server redacts again: card data must never
 * reach us).
 */
export function paymentLogPayload(
  outcome: Exclude<PaymentOutcome, { kind: 'approved' }>,
  card?: { cardNumber: string },
): string {
  // The last 4 of the card tried: which card failed, without the card.
  const tried = card ? { cardLast4: card.cardNumber.replace(/\D+/g, '').slice(-4) } : {};
  const body =
    outcome.kind === 'threeDSFailed'
      ? { kind: outcome.kind, ...tried, threeDS: outcome.result }
      : outcome.kind === 'unavailable'
        ? { kind: outcome.kind, ...tried, reason: outcome.reason }
        : { kind: outcome.kind, ...tried, ...outcome.response };
  const json = JSON.stringify(body, (key, value: unknown) =>
    SECRET_FIELDS.test(key) ? undefined : NUMBER_FIELDS.test(key) ? last4(value) : value,
  );
  return redactGatewayPayload(json).slice(0, 20_000);
}
