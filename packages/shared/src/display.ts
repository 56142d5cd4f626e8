/**
 * How a phone number and a card are shown to people, in one place for the console, the patient app and the server's
 * messages and PDFs (issue 29, item 4; decision 0219). Data (the API, the CSV exports, the database) keeps E.164 and
 * the gateway's brand code; only what a person reads goes through these.
 */

/** The UI languages and their locales (English and Spanish as spoken in the US). */
export type DisplayLanguage = 'en' | 'es';

/**
 * A phone number as people in the US read it, in either language: a US or Canadian number (E.164 `+1…`, or 10 digits,
 * or 11 starting with 1) as `(305) 555-9101`; any other number in its international form, `+52 55 1234 5678` grouped
 * as stored; an empty value as ''. en-US and es-US write NANP numbers the same way, so both languages share the rule
 * (`language` is accepted so a future locale can differ without changing callers).
 */
export function formatPhoneNumber(phone: string | null | undefined, _language: DisplayLanguage = 'en'): string {
  const raw = (phone ?? '').trim();
  if (!raw) return '';
  const digits = raw.replace(/\D+/g, '');
  const international = raw.startsWith('+');
  const nanp =
    (!international && digits.length === 10) || (digits.length === 11 && digits.startsWith('1'))
      ? digits.slice(-10)
      : null;
  if (nanp && (!international || raw.startsWith('+1'))) {
    return `(${nanp.slice(0, 3)}) ${nanp.slice(3, 6)}-${nanp.slice(6)}`;
  }
  return raw;
}

/** Card brands by the codes gateways and our sandbox use (any case, spaces and dashes ignored). */
const CARD_BRANDS: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  mc: 'Mastercard',
  amex: 'American Express',
  americanexpress: 'American Express',
  discover: 'Discover',
  jcb: 'JCB',
  diners: 'Diners Club',
  dinersclub: 'Diners Club',
  unionpay: 'UnionPay',
  cup: 'UnionPay',
};

/** "Visa", "Mastercard", "American Express"…: the brand's own name; an unknown code as given; null as ''. */
export function cardBrandName(brand: string | null | undefined): string {
  const code = (brand ?? '').trim();
  if (!code) return '';
  return CARD_BRANDS[code.toLowerCase().replace(/[\s_-]+/g, '')] ?? code;
}

/**
 * The brand's own name only when the code is one of the brands above, else null: the words a record keeps name a
 * card from this fixed list, never a string a gateway or a browser made up (issue 41, item 3; decision 0240).
 */
export function knownCardBrandName(brand: string | null | undefined): string | null {
  const code = (brand ?? '').trim();
  return CARD_BRANDS[code.toLowerCase().replace(/[\s_-]+/g, '')] ?? null;
}

/** "Visa •••• 0002" (brand, then the last four); only the brand or only the digits when the other is unknown. */
export function formatCard(brand: string | null | undefined, last4: string | null | undefined): string {
  const name = cardBrandName(brand);
  const tail = last4 ? `•••• ${last4}` : '';
  return [name, tail].filter(Boolean).join(' ');
}
