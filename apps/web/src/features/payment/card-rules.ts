/**
 * Card form rules of spec sections 3 and 5. Pure functions: the form shows what they return, the tests pin them.
 * Messages are translation keys in the `payment` namespace (English texts in the comments are the spec's).
 */

const CARD_NUMBER_MAX = 16;
const CARD_NUMBER_MIN = 13;
const EXPIRY_LENGTH = 4;
const CVC_MIN = 3;
export const CVC_MAX = 4;

export type CardBrand =
  | 'amex'
  | 'dinersCarteBlanche'
  | 'dinersInternational'
  | 'jcb'
  | 'laser'
  | 'visaElectron'
  | 'visa'
  | 'mastercard'
  | 'maestro'
  | 'discover';

interface BrandRule {
  brand: CardBrand;
  pattern: RegExp;
  lengths: readonly number[];
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_v, i) => from + i);

/**
 * Checked in this order: the narrower prefixes (Visa Electron inside Visa, Laser's 6304 inside Maestro's) first.
 * Lengths are the spec's; prefixes are the issuers' published ranges (Mastercard includes the 2221-2720 series).
 */
const BRAND_RULES: readonly BrandRule[] = [
  { brand: 'amex', pattern: /^3[47]/, lengths: [15] },
  { brand: 'dinersCarteBlanche', pattern: /^30[0-5]/, lengths: [14] },
  { brand: 'dinersInternational', pattern: /^36/, lengths: [14] },
  { brand: 'jcb', pattern: /^35(2[89]|[3-8]\d)/, lengths: [16] },
  { brand: 'laser', pattern: /^(6304|670[69]|6771)/, lengths: range(16, 19) },
  { brand: 'visaElectron', pattern: /^(4026|417500|4508|4844|491[37])/, lengths: [16] },
  { brand: 'visa', pattern: /^4/, lengths: [16] },
  { brand: 'mastercard', pattern: /^(5[1-5]|222[1-9]|22[3-9]\d|2[3-6]\d{2}|27[01]\d|2720)/, lengths: [16] },
  { brand: 'maestro', pattern: /^(5018|5020|5038|6304|6759|676[1-3])/, lengths: range(12, 19) },
  {
    brand: 'discover',
    pattern: /^(6011|622(12[6-9]|1[3-9]\d|[2-8]\d{2}|9[01]\d|92[0-5])|64[4-9]|65)/,
    lengths: [16],
  },
];

export interface BrandInfo {
  brand: CardBrand;
  /** Lengths this brand's numbers have (spec section 3). */
  lengths: readonly number[];
  /** Whether the digits typed so far have one of those lengths. */
  lengthValid: boolean;
}

/** The brand of a (partly typed) card number, or null while the prefix matches none. */
export function detectCardBrand(cardNumber: string): BrandInfo | null {
  const digits = cardNumber.replace(/\D+/g, '');
  if (!digits) return null;
  const rule = BRAND_RULES.find((r) => r.pattern.test(digits));
  if (!rule) return null;
  return { brand: rule.brand, lengths: rule.lengths, lengthValid: rule.lengths.includes(digits.length) };
}

/**
 * The card number field keeps digits only (typed or pasted) and at most 16 of them. Separators are removed before the
 * length rule, so a pasted "4000 0000 0000 0002" keeps all 16 digits (decision 0160).
 */
export function sanitizeCardNumber(input: string): string {
  return input.replace(/\D+/g, '').slice(0, CARD_NUMBER_MAX);
}

/** Digit groups as printed on the card: American Express and Diners 4-6-5 / 4-6-4, every other brand 4-4-4-4. */
export function formatCardNumber(digits: string): string {
  const brand = detectCardBrand(digits)?.brand;
  const groups =
    brand === 'amex' || brand === 'dinersCarteBlanche' || brand === 'dinersInternational' ? [4, 6, 5] : [4, 4, 4, 4];
  const out: string[] = [];
  let at = 0;
  for (const size of groups) {
    if (at >= digits.length) break;
    out.push(digits.slice(at, at + size));
    at += size;
  }
  if (at < digits.length) out.push(digits.slice(at));
  return out.join(' ');
}

/** Where the caret belongs in `formatted` so that `digitsBefore` digits stand to its left. */
export function caretAfterDigits(formatted: string, digitsBefore: number): number {
  if (digitsBefore <= 0) return 0;
  let seen = 0;
  for (let i = 0; i < formatted.length; i++) {
    if (/\d/.test(formatted[i]!)) seen++;
    if (seen === digitsBefore) return i + 1;
  }
  return formatted.length;
}

/**
 * What the expiry field stores (MMYY) for what was typed, pasted or autofilled: "12/28", "12 / 28", "12-28",
 * "12/2028" and "1/28" all become "1228"/"0128". Anything with other characters is kept as typed, so the rules below
 * can say "Numbers only allowed".
 */
export function normalizeExpiry(input: string): string {
  const separated = /^\s*(\d{1,2})\s*[/.-]\s*(\d{0,4})\s*$/.exec(input);
  if (separated) {
    const month = separated[1]!.padStart(2, '0');
    const year = separated[2]!.length === 4 ? separated[2]!.slice(2) : separated[2]!.slice(0, 2);
    return month + year;
  }
  if (/^[\d\s]*$/.test(input)) {
    const digits = input.replace(/\s+/g, '');
    // "122028" (MMYYYY, an autofill format) → "1228"; otherwise at most four digits are kept.
    return digits.length === 6 && digits.slice(2, 4) === '20'
      ? digits.slice(0, 2) + digits.slice(4)
      : digits.slice(0, 4);
  }
  return input;
}

export type CardNumberError = 'cardNumber.required' | 'cardNumber.tooShort';

export function validateCardNumber(value: string): CardNumberError | null {
  if (!value) return 'cardNumber.required';
  if (!/^\d+$/.test(value) || value.length < CARD_NUMBER_MIN) return 'cardNumber.tooShort';
  return null;
}

export type ExpiryError =
  /** 'Enter date' */
  | 'expiry.empty'
  /** 'Numbers only allowed' */
  | 'noSpecialCharacters'
  /** 'Enter a valid expiration month' */
  | 'expiry.month'
  /** 'Proper expiration date format is MMYY' */
  | 'expiry.format'
  /** 'Enter a valid expiration year' */
  | 'expiry.year'
  /** 'Enter a valid expiration date' */
  | 'expiry.date';

/**
 * MMYY. One message at a time, the most useful first: nothing typed, a non-digit, an impossible month (as soon as
 * two digits are typed), an incomplete value, a past year, a past month of the current year.
 */
export function validateExpiry(value: string, now: Date = new Date()): ExpiryError | null {
  if (value === '') return 'expiry.empty';
  if (/\D/.test(value)) return 'noSpecialCharacters';
  if (value.length >= 2) {
    const month = Number(value.slice(0, 2));
    if (month < 1 || month > 12) return 'expiry.month';
  }
  if (value.length !== EXPIRY_LENGTH) return 'expiry.format';
  const month = Number(value.slice(0, 2));
  const year = Number(value.slice(2, 4));
  const currentYear = now.getFullYear() % 100;
  const currentMonth = now.getMonth() + 1;
  if (year < currentYear) return 'expiry.year';
  if (year === currentYear && month < currentMonth) return 'expiry.date';
  return null;
}

/** 'MMYY' → 'YYMM', the 3-D Secure SDK's cardExpiryDate. */
export function expiryToYYMM(mmyy: string): string {
  return `${mmyy.slice(2, 4)}${mmyy.slice(0, 2)}`;
}

export type CvcError =
  /** 'Enter security code' */
  | 'cvc.empty'
  /** 'Numbers only allowed' */
  | 'noSpecialCharacters'
  /** 'Security code must be 3 or 4 digits' */
  | 'cvc.length';

export function validateCvc(value: string): CvcError | null {
  if (value === '') return 'cvc.empty';
  if (/\D/.test(value)) return 'noSpecialCharacters';
  if (value.length < CVC_MIN || value.length > CVC_MAX) return 'cvc.length';
  return null;
}

/** 'Mary Ann Smith' → first 'Mary Ann', last 'Smith'; a single word is the last name. */
export function splitFullName(fullName: string): { first: string; last: string } {
  const words = fullName.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return { first: '', last: '' };
  const last = words.pop()!;
  return { first: words.join(' '), last };
}
