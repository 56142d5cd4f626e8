import { describe, expect, it } from 'vitest';
import { createLinkBodySchema, normalizePhone, parseDuration } from './admin.js';

describe('admin contract helpers', () => {
  it('parses link lifetimes in days, hours or minutes, up to a year', () => {
    expect(parseDuration('14d')).toBe(14 * 1440);
    expect(parseDuration('36h')).toBe(36 * 60);
    expect(parseDuration('90m')).toBe(90);
    expect(parseDuration('7')).toBe(7 * 1440);
    expect(parseDuration('365d')).toBe(365 * 1440);
    for (const bad of ['366d', '0d', '3w', '', '-1d', '1.5d']) expect(parseDuration(bad), bad).toBeNull();
  });

  it('stores phone numbers in international form and refuses what SMS cannot reach', () => {
    expect(normalizePhone('(555) 010-4567')).toBe('+15550104567');
    expect(normalizePhone('1-555-010-4567')).toBe('+15550104567');
    expect(normalizePhone('+34 612 34 56 78')).toBe('+34612345678');
    expect(normalizePhone('')).toBe('');
    for (const bad of ['12345', '555-010-456', 'call me', '+1']) expect(normalizePhone(bad), bad).toBeNull();
  });

  it('derives the sign-in method and requires its contact', () => {
    const sms = createLinkBodySchema.parse({ firstName: 'A', lastName: 'B', phone: '5550104567' });
    expect(sms).toMatchObject({ signInMethod: 'sms', language: 'en', isPaymentLinkLocked: false });
    const email = createLinkBodySchema.parse({ firstName: 'A', lastName: 'B', email: 'A@Example.com' });
    expect(email).toMatchObject({ signInMethod: 'email', email: 'a@example.com' });
    const r = createLinkBodySchema.safeParse({ firstName: 'A', lastName: 'B', signInMethod: 'email' });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.path).toEqual(['email']);
  });
});
