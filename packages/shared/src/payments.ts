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
 * (Mastercard: 02 full, 01 attempted). See docs/decisions/0050-eci-mapping.md.
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

/** Keys whose values are card security codes, in JSON, form, query or XML shapes (any case, ssl_ prefix or not). */
const CVC_KEY = String.raw`(?:ssl_)?(?:cvv2cvc2|cvv2|cvc2|cvv|cvc|cvn|cid|security_?code|card_?code|card_?verification(?:_?value)?)`;
/** Keys whose values are card numbers or expiry dates. */
const PAN_KEY = String.raw`(?:ssl_)?(?:card_?number|acct_?number|account_?number|pan)`;
const EXP_KEY = String.raw`(?:ssl_)?(?:exp_?date|card_?expiry_?date|expiration_?date|expiry)`;
/** key, then an optional escaped/plain quote, a separator, and an optional quote: the value follows. */
const kv = (key: string) =>
  new RegExp(String.raw`((?:\\?["'])?\b${key}(?:\\?["'])?\s*[:=]\s*(?:\\?["'])?)([^"'\\,&<\s}\]]*)`, 'gi');
const xml = (key: string) => new RegExp(String.raw`(<(${key})\s*>)([^<]*)(<\/\2\s*>)`, 'gi');

function last4Only(value: string): string {
  const digits = value.replace(/\D/g, '');
  return digits.length >= 4 ? `************${digits.slice(-4)}` : '[redacted]';
}

/**
 * Keep only what is safe to store from a gateway answer: never a full card number (the last 4 stay) and never a CVC
 * or an expiry date. Works on JSON (also JSON inside JSON strings), form/query strings, XML and free text.
 */
export function redactGatewayPayload(payload: string): string {
  return (
    payload
      // Magnetic-stripe data: track 1 (`%B<PAN>^NAME^YYMM…`) and track 2 (`;<PAN>=YYMM…`) keep the PAN (masked
      // below) and lose the name, expiry, service code and discretionary data after the separator.
      .replace(/(%?B?\d{12,19})\^[^^\n"]*\^[^\s"&,}<]*/g, '$1^[redacted]')
      .replace(/((?:\d[ -]?){12,19}|\*{4,}\d{4})=\d{4}[^\s"&,}<]*/g, '$1=[redacted]')
      // Security codes and expiry dates by key: the value goes entirely.
      .replace(kv(CVC_KEY), '$1[redacted]')
      .replace(xml(CVC_KEY), '$1[redacted]$4')
      .replace(kv(EXP_KEY), '$1[redacted]')
      .replace(xml(EXP_KEY), '$1[redacted]$4')
      // Free text: "security code: 987", "cid 987", "CVV#987".
      .replace(
        /\b((?:cvv2?|cvc2?|cvn|cid|security[ _-]?code|card[ _-]?code)\b[\s:=#"'\\]*)\d{3,4}(?!\d)/gi,
        '$1[redacted]',
      )
      // Expiry dates in free text: "exp 12/27", "expires: 1227", "valid thru 12/2027", and any bare MM/YY or MM/YYYY
      // that is not part of a longer date.
      .replace(
        /\b((?:exp(?:iry|iration|ires?)?(?:[ _-]?date)?|valid[ _-]?(?:thru|through|until)|good[ _-]?thru)\b[\s:=#"'\\.]*)(?:\d{1,2}\s*[/-]\s*\d{2,4}|\d{4})(?![\d/])/gi,
        '$1[redacted]',
      )
      .replace(/(?<![\d/.-])(0[1-9]|1[0-2])\s?\/\s?(?:\d{2}|20\d{2})(?![\d/])/g, '[redacted]')
      // Card numbers by key, whatever their shape: last 4 only.
      .replace(kv(PAN_KEY), (_m, k: string, v: string) => `${k}${v.includes('*') ? v : last4Only(v)}`)
      .replace(xml(PAN_KEY), (_m, open: string, _k: string, v: string, close: string) =>
        v.includes('*') ? `${open}${v}${close}` : `${open}${last4Only(v)}${close}`,
      )
      // Any other run of 12-19 digits (optionally spaced or dashed), even glued to letters: keep the last 4.
      .replace(/(?<!\d)(?:\d[ -]?){8,15}(\d{4})(?!\d)/g, (_m, last4: string) => `************${last4}`)
  );
}
