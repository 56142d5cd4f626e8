/**
 * The guard that keeps card numbers out of free text (issue 41, item 3; decision 0240). A "digit run" is a number as
 * a person would write a card number: 7 or more digits in a row, or 13 or more digits in groups joined by single
 * spaces or dashes ("4111 1111 1111 1111"). Only a run standing on its own counts: digits glued to letters, dashes or
 * underscores belong to an id (a gateway transaction id, a hex token) and are left alone, as are phone numbers
 * ("(555) 010-0123") and dates ("2026-12-01"), whose digit groups are shorter.
 */
const RUN = /(?<![\p{L}\p{N}_-])(?:\d{7,}|\d+(?:[ -]\d+)+)(?![\p{L}\p{N}_-])/gu;

/** What stands in a redacted run's place. */
export const DIGITS_REDACTED = '[digits removed]';

function isRun(match: string): boolean {
  const digits = match.replace(/\D/g, '').length;
  return /\d{7,}/.test(match) || digits >= 13;
}

/** The first digit run in `text`, or null. */
export function findDigitRun(text: string): string | null {
  for (const m of text.matchAll(RUN)) if (isRun(m[0])) return m[0];
  return null;
}

/** `text` with every digit run replaced by DIGITS_REDACTED. */
export function redactDigitRuns(text: string): string {
  return text.replace(RUN, (m) => (isRun(m) ? DIGITS_REDACTED : m));
}

/** Every string inside `value` (objects and arrays, deeply) redacted; other values as they are. */
export function redactDigitRunsDeep<T>(value: T): T {
  if (typeof value === 'string') return redactDigitRuns(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactDigitRunsDeep(v)) as T;
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactDigitRunsDeep(v)])) as T;
  }
  return value;
}
