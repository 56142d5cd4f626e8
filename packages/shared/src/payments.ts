/**
 * 3-D Secure and decline rules shared by the browser (which shows them) and the server (which re-checks them).
 * Sources: ../shared/notes/providers.md (ECI by scheme; Converge AVS and CVV codes).
 */

/** transStatus values after which no payment may be attempted. */
export const ThreeDSFailStatuses = ['R', 'U', 'N'] as const;

export function isThreeDSFailure(transStatus: string | undefined | null): boolean {
  return !transStatus || (ThreeDSFailStatuses as readonly string[]).includes(transStatus);
}

/**
 * ECI → Converge ssl_eci_ind by scheme meaning: 02|05 full (5), 01|06 attempted (6), else 7.
 * The spec's table reads "01 or 05 → 5; 02 or 06 → 6", which swaps Mastercard's two values
 * (Mastercard: 02 full, 01 attempted). See docs/decisions/0006-eci-mapping.md.
 */
export function eciToSslEciInd(eci: string | undefined | null): '5' | '6' | '7' {
  switch ((eci ?? '').padStart(2, '0')) {
    case '02':
    case '05':
      return '5';
    case '01':
    case '06':
      return '6';
    default:
      return '7';
  }
}

export const CvvCodes = ['M', 'N', 'P', 'S', 'U'] as const;
export const AvsCodes = [
  'A',
  'B',
  'C',
  'D',
  'E',
  'F',
  'G',
  'I',
  'M',
  'N',
  'O',
  'P',
  'R',
  'S',
  'U',
  'W',
  'X',
  'Y',
  'Z',
] as const;

/** English texts; the web app translates by key `cvv.<code>` / `avs.<code>`. */
export const CvvTexts: Record<string, string> = {
  M: 'CVV2/CVC2 match.',
  N: 'The security code (CVV2/CVC2) does not match.',
  P: 'The security code (CVV2/CVC2) was not processed.',
  S: 'The card issuer says a security code should be on the card, but it was not provided.',
  U: 'The card issuer is not certified for security code checks.',
};

export const AvsTexts: Record<string, string> = {
  A: 'The address matches, but the ZIP code does not.',
  B: 'The street address matches, but the postal code is in the wrong format.',
  C: 'The street address and postal code are in the wrong format.',
  D: 'The street address and postal code match.',
  E: 'The address could not be verified (AVS error).',
  F: 'The address and ZIP code match.',
  G: 'The card issuer does not support address verification.',
  I: 'The address could not be verified by the card issuer.',
  M: 'The street address and postal code match.',
  N: 'Neither the street address nor the ZIP code match.',
  O: 'The card issuer did not respond to address verification.',
  P: 'The postal code matches, but the street address could not be verified.',
  R: 'Address verification is unavailable. Please try again.',
  S: 'The card issuer does not support address verification.',
  U: 'Address information is unavailable for this card.',
  W: 'The 9-digit ZIP code matches, but the street address does not.',
  X: 'The street address and 9-digit ZIP code match.',
  Y: 'The street address and 5-digit ZIP code match.',
  Z: 'The 5-digit ZIP code matches, but the street address does not.',
};

export interface GatewayFailure {
  errorMessage?: string;
  errorCode?: string | number;
  ssl_result_message?: string;
  ssl_cvv2_response?: string;
  ssl_avs_response?: string;
}

export type DeclineMessage =
  | { kind: 'error'; text: string }
  | { kind: 'cvv'; code: string }
  | { kind: 'avs'; code: string }
  | { kind: 'result'; text: string };

/** Spec section 8, decline modal: the message is chosen in this order. */
export function selectDeclineMessage(r: GatewayFailure): DeclineMessage {
  if (r.errorMessage) return { kind: 'error', text: r.errorMessage };
  const cvv = (r.ssl_cvv2_response ?? '').trim().toUpperCase();
  const avs = (r.ssl_avs_response ?? '').trim().toUpperCase();
  if (r.ssl_result_message && cvv && cvv !== 'M' && ['N', 'P', 'S', 'U'].includes(cvv)) {
    return { kind: 'cvv', code: cvv };
  }
  if (cvv === 'M' && avs && !['W', 'X', 'Y', 'Z'].includes(avs) && avs in AvsTexts) {
    return { kind: 'avs', code: avs };
  }
  return { kind: 'result', text: r.ssl_result_message ?? '' };
}

/** Keep only what is safe to store from a gateway answer: never a full card number or a CVC. */
export function redactGatewayPayload(payload: string): string {
  return (
    payload
      // 12-19 digit runs (optionally spaced or dashed) → keep the last 4
      .replace(/\b(?:\d[ -]?){8,15}(\d{4})\b/g, (_m, last4: string) => `************${last4}`)
      // cvv / cvc fields in JSON, form or XML shapes
      .replace(/("?(?:ssl_)?(?:cvv2cvc2|cvv2|cvc2|cvv|cvc)"?\s*[:=]\s*"?)[^",&<\s}]*/gi, '$1[redacted]')
      .replace(/(<(?:ssl_)?cvv2cvc2>)[^<]*(<\/)/gi, '$1[redacted]$2')
  );
}
