import { z } from 'zod';

/* eslint-disable no-control-regex -- matching control characters is this module's job */
/**
 * Text hygiene shared by every side (issue 11, findings 3, 4 and 6): control characters are refused at the API
 * edge (PostgreSQL cannot store NUL, and escape sequences are terminal commands), names are stored without them,
 * and card numbers typed into free text are masked before anything stores them.
 */

/** C0 controls except tab, LF and CR; DEL; C1 controls. NUL is among them (PostgreSQL refuses it in text). */
export const CONTROL_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
const CONTROL_CHARS_ALL = /[\u0000-\u001F\u007F-\u009F]/g;
/** Bidirectional overrides and zero-width marks: they reorder or hide text a coordinator reads (Trojan Source). */
const INVISIBLE_FORMATTING = /[\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/g;

export const CONTROL_CHARS_MESSAGE = 'must not contain control characters';

export function hasControlChars(v: string): boolean {
  return CONTROL_CHARS.test(v);
}

/**
 * The dotted path of the first string (or object key) in a parsed body/query/params that holds a control character,
 * or null. Depth- and size-bounded so a hostile body cannot make the walk itself expensive.
 */
export function findControlChars(value: unknown, path = '', depth = 0): string | null {
  if (typeof value === 'string') return hasControlChars(value) ? path || '_' : null;
  if (value === null || typeof value !== 'object' || depth > 32) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length && i < 10_000; i++) {
      const hit = findControlChars(value[i], path ? `${path}.${i}` : String(i), depth + 1);
      if (hit) return hit;
    }
    return null;
  }
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const here = path ? `${path}.${k}` : k;
    if (hasControlChars(k)) return here.replace(CONTROL_CHARS_ALL, '?');
    const hit = findControlChars(v, here, depth + 1);
    if (hit) return hit;
  }
  return null;
}

/**
 * A name as it may be stored and printed: no C0/C1 controls (so no ESC, no OSC 8/52 sequences), no bidi overrides or
 * zero-width marks, whitespace runs collapsed to one space.
 */
export function cleanName(v: string): string {
  return v.replace(CONTROL_CHARS_ALL, ' ').replace(INVISIBLE_FORMATTING, '').replace(/\s+/g, ' ').trim();
}

/** For a terminal: every C0/C1 control except newline becomes a visible `?`, bidi overrides go. */
export function printable(v: string): string {
  return v.replace(/[\u0000-\u0009\u000B-\u001F\u007F-\u009F]/g, '?').replace(INVISIBLE_FORMATTING, '');
}

function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * Free text a person typed (a procedure description, an address, a payor's name): any Luhn-valid run of 13-19
 * digits starting 2-6 (the card schemes' ranges), optionally spaced or dashed, is a card number and keeps only its
 * last 4. Phone numbers (+country…) and ZIP codes stay as typed.
 */
export function scrubCardNumbers(v: string): string {
  return v.replace(/(?<![\d+])[2-6](?:[ -]?\d){12,18}(?!\d)/g, (m) => {
    const digits = m.replace(/\D/g, '');
    return luhnValid(digits) ? `************${digits.slice(-4)}` : m;
  });
}

/** A string field that refuses control characters (400 naming the field, through the server's error handler). */
export const safeString = () => z.string().refine((v) => !hasControlChars(v), CONTROL_CHARS_MESSAGE);

/** A person's or company's name: no controls accepted, bidi/zero-width marks removed, card numbers masked. */
export const nameString = (max: number) =>
  safeString()
    .max(max)
    .transform((v) => scrubCardNumbers(cleanName(v)));

/** Free text typed by staff or a patient: no controls accepted, trimmed, card numbers masked. */
export const freeTextString = (max: number) =>
  safeString()
    .max(max)
    .transform((v) => scrubCardNumbers(v.trim()));
