import { PaymentType, type PaymentTypeId } from './ids.js';

/** Amount ranges of spec section 5, in whole US dollars (the patient types whole dollars). */
export const AmountRanges = {
  deposit: { min: 250, max: 1000 },
  payment: { min: 500, max: 20000 },
} as const;

export interface AmountRule {
  min: number;
  max: number;
  /** Translation key of the hint shown under the field. */
  hintKey: 'patientInfoFormFeedBackMsg' | 'patientInfoFormFeedBackMsgPartialPayment';
  /** English text of the out-of-range message (the translation key carries the same text). */
  message: string;
}

const depositRule: AmountRule = {
  ...AmountRanges.deposit,
  hintKey: 'patientInfoFormFeedBackMsg',
  message: 'Amount entered must be between $250 and $1000',
};
const paymentRule: AmountRule = {
  ...AmountRanges.payment,
  hintKey: 'patientInfoFormFeedBackMsgPartialPayment',
  message: 'Amount entered must be between $500 and $20,000',
};

/** A locked link forces type 2; otherwise the type picks the range. */
export function effectivePaymentType(opts: { locked: boolean; paymentTypeId?: number | null }): PaymentTypeId {
  if (opts.locked) return PaymentType.Payment;
  return opts.paymentTypeId === PaymentType.Payment ? PaymentType.Payment : PaymentType.Deposit;
}

export function amountRule(opts: { locked: boolean; paymentTypeId?: number | null }): AmountRule {
  return effectivePaymentType(opts) === PaymentType.Payment ? paymentRule : depositRule;
}

export function isAmountInRange(amountDollars: number, rule: AmountRule): boolean {
  return Number.isInteger(amountDollars) && amountDollars >= rule.min && amountDollars <= rule.max;
}

/** Strip everything but digits, as the amount, card, expiry and CVC fields do on input and paste. */
export function digitsOnly(value: string): string {
  return value.replace(/\D+/g, '');
}

export function dollarsToCents(dollars: number): number {
  return Math.round(dollars * 100);
}

/** Parse "500", "500.5" or "500.00" exactly into cents; null when it is not a plain non-negative amount. */
export function parseDollarsToCents(text: string): number | null {
  const m = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!m) return null;
  const whole = Number(m[1]);
  const frac = m[2] ? Number(m[2].padEnd(2, '0')) : 0;
  return whole * 100 + frac;
}

/**
 * An amount as staff type it in a dollar field ("120", "120.5", "$120.50"): parseDollarsToCents after an optional
 * leading "$". The console's refund amount uses it; what the server and the gateway read stays parseDollarsToCents.
 */
export function parseTypedDollarsToCents(text: string): number | null {
  return parseDollarsToCents(text.trim().replace(/^\$/, ''));
}

/** "500.00" — the form card gateways take (Converge ssl_amount). */
export function centsToDecimalString(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** "$1,250.00" in en-US, or the given locale; amounts are always USD. */
export function formatUsd(cents: number, locale = 'en-US'): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' }).format(cents / 100);
}
