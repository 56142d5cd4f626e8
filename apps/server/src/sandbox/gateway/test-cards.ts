import { createHmac, randomBytes, randomInt, randomUUID } from 'node:crypto';

/**
 * The sandbox gateway's test cards (issue 6's table, docs/payments.md). Any CVC and any future expiry work; an
 * expiry in the past is declined 'EXPIRED CARD'. Only the brand and last 4 of a number are ever kept.
 */
export type ThreeDSBehaviour =
  | { kind: 'frictionless'; transStatus: 'Y' | 'A' }
  | { kind: 'challenge' }
  | { kind: 'fail'; transStatus: 'R' | 'U'; reason: string };

export type PayBehaviour =
  | { kind: 'approve' }
  | { kind: 'decline'; message: string; cvv: string; avs: string }
  | { kind: 'error'; code: string; name: string; message: string };

/** What a stored card does on later merchant-initiated charges (token sales); absent = like its first sale. */
export type LaterChargeBehaviour = { kind: 'decline'; message: string; issuerResponse: string };

export interface TestCard {
  number: string;
  outcome: string;
  threeDS: ThreeDSBehaviour;
  pay: PayBehaviour;
  laterCharges?: LaterChargeBehaviour;
  /** The expiry the card is stored with, whatever the cardholder typed: next month (expires before a balance). */
  storedExpiry?: 'next-month';
}

const approve: PayBehaviour = { kind: 'approve' };
const Y: ThreeDSBehaviour = { kind: 'frictionless', transStatus: 'Y' };

export const INVALID_CARD_MESSAGE =
  'The Credit Card Number supplied in the authorization request appears to be invalid.';

/** Converge's decline for insufficient funds (issuer response 51). */
export const NSF_MESSAGE = 'DECLINED: NSF';
export const EXPIRED_MESSAGE = 'EXPIRED CARD';

export const TEST_CARDS: TestCard[] = [
  { number: '4000000000000002', outcome: 'approved, frictionless (transStatus Y, eci 05)', threeDS: Y, pay: approve },
  { number: '5413330089604111', outcome: 'approved, frictionless Mastercard (Y, eci 02)', threeDS: Y, pay: approve },
  {
    number: '4000000000000077',
    outcome: 'challenge lightbox; Authenticate → Y, eci 05, approved; Fail → N',
    threeDS: { kind: 'challenge' },
    pay: approve,
  },
  {
    number: '4000000000000101',
    outcome: 'attempted authentication (A, eci 06), approved',
    threeDS: { kind: 'frictionless', transStatus: 'A' },
    pay: approve,
  },
  {
    number: '4000000000000119',
    outcome: '3-D Secure rejected (R)',
    threeDS: { kind: 'fail', transStatus: 'R', reason: '11' },
    pay: approve,
  },
  {
    number: '4000000000000127',
    outcome: '3-D Secure could not be performed (U)',
    threeDS: { kind: 'fail', transStatus: 'U', reason: '14' },
    pay: approve,
  },
  {
    number: '4000000000000051',
    outcome: 'declined, ssl_cvv2_response N',
    threeDS: Y,
    pay: { kind: 'decline', message: 'DECLINED CVV2', cvv: 'N', avs: 'Y' },
  },
  {
    number: '4000000000000069',
    outcome: 'declined, CVV M, ssl_avs_response N',
    threeDS: Y,
    pay: { kind: 'decline', message: 'DECLINED', cvv: 'M', avs: 'N' },
  },
  {
    number: '4000000000000085',
    outcome: "declined 'DECLINED', CVV M, AVS Y",
    threeDS: Y,
    pay: { kind: 'decline', message: 'DECLINED', cvv: 'M', avs: 'Y' },
  },
  {
    number: '4000000000000093',
    outcome: 'gateway error: errorCode 3003, errorMessage',
    threeDS: Y,
    pay: {
      kind: 'error',
      code: '3003',
      name: 'Processing Error',
      message: 'The transaction could not be processed. Please try again later.',
    },
  },
  {
    number: '4000000000000341',
    outcome: "deposit approved and card stored; every later token charge declined 'DECLINED: NSF' (issuer 51)",
    threeDS: Y,
    pay: approve,
    laterCharges: { kind: 'decline', message: NSF_MESSAGE, issuerResponse: '51' },
  },
  {
    number: '4000000000000358',
    outcome: "deposit approved; card stored expiring next month (token charges after it: 'EXPIRED CARD')",
    threeDS: Y,
    pay: approve,
    storedExpiry: 'next-month',
  },
];

function luhnValid(number: string): boolean {
  if (!/^\d{12,19}$/.test(number)) return false;
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let d = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** What the sandbox does with a number: a listed card, any other Luhn-valid number (approved), or invalid. */
export function testCardFor(number: string): TestCard | { number: string; invalid: true } {
  const listed = TEST_CARDS.find((c) => c.number === number);
  if (listed) return listed;
  if (!luhnValid(number)) return { number, invalid: true };
  return { number, outcome: 'approved, frictionless', threeDS: Y, pay: approve };
}

/**
 * The card token the sandbox's Card Manager gives a card: 12 digits keyed by the merchant's PIN and the number, then
 * the last 4 (Converge's tokens keep them). The same card gets the same token, so a token tells which test card it
 * is (testCardForToken) without the number ever being stored.
 */
export function cardTokenFor(number: string, merchantId: string, key: string): string {
  const mac = createHmac('sha256', key).update(`${merchantId}:${number}`).digest();
  const digits = (mac.readBigUInt64BE(0) % 10n ** 12n).toString().padStart(12, '0');
  return `${digits}${number.slice(-4)}`;
}

/** The listed test card a token was made from, if any (any other stored card behaves like a plain approval). */
export function testCardForToken(token: string, merchantId: string, key: string): TestCard | undefined {
  return TEST_CARDS.find(
    (c) => c.number.slice(-4) === token.slice(-4) && cardTokenFor(c.number, merchantId, key) === token,
  );
}

/** MMYY of the month after now (UTC). */
export function nextMonthExpiry(now = new Date()): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return `${String(d.getUTCMonth() + 1).padStart(2, '0')}${String(d.getUTCFullYear() % 100).padStart(2, '0')}`;
}

/** Converge's ssl_card_short_description and our lower-case brand. */
export function cardBrand(number: string): { short: string; brand: string } {
  if (/^4/.test(number)) return { short: 'VISA', brand: 'visa' };
  if (/^(5[1-5]|2(2[2-9][1-9]|2[3-9]\d|[3-6]\d\d|7[01]\d|720))/.test(number))
    return { short: 'MC', brand: 'mastercard' };
  if (/^3[47]/.test(number)) return { short: 'AMEX', brand: 'amex' };
  if (/^(6011|65|64[4-9])/.test(number)) return { short: 'DISC', brand: 'discover' };
  if (/^35/.test(number)) return { short: 'JCB', brand: 'jcb' };
  if (/^3(0[0-5]|[68])/.test(number)) return { short: 'DINERS', brand: 'diners' };
  return { short: 'CARD', brand: 'card' };
}

/** ECI by scheme (providers.md): Mastercard 02 full / 01 attempted / 00 none; the others 05 / 06 / 07. */
export function eciFor(brand: string, transStatus: string): string {
  const mc = brand === 'mastercard';
  if (transStatus === 'Y') return mc ? '02' : '05';
  if (transStatus === 'A') return mc ? '01' : '06';
  return mc ? '00' : '07';
}

export function maskCard(number: string): string {
  return `${number.slice(0, 2)}${'*'.repeat(Math.max(0, number.length - 6))}${number.slice(-4)}`;
}

/** MMYY in the past (by month) → expired. Invalid months are caught before this. */
export function isExpired(mmyy: string, now = new Date()): boolean {
  const month = Number(mmyy.slice(0, 2));
  const year = 2000 + Number(mmyy.slice(2, 4));
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth() + 1;
  return year < y || (year === y && month < m);
}

const CODE_CHARS = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';
export function newApprovalCode(): string {
  return Array.from({ length: 6 }, () => CODE_CHARS[randomInt(CODE_CHARS.length)]).join('');
}

/** Converge-like transaction id: DDMMYY + letter + 2 digits + '-' + UUID. */
export function newTxnId(now = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  const date = `${p(now.getUTCDate())}${p(now.getUTCMonth() + 1)}${p(now.getUTCFullYear() % 100)}`;
  return `${date}A${p(randomInt(100))}-${randomUUID().toUpperCase()}`;
}

/** A CAVV-shaped authentication value (20 random bytes, base64). */
export function newAuthenticationValue(): string {
  return randomBytes(20).toString('base64');
}
