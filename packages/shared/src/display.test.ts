import { describe, expect, it } from 'vitest';
import { cardBrandName, formatCard, formatPhoneNumber } from './display.js';

describe('formatPhoneNumber: one display format, English and Spanish alike', () => {
  it('writes a US number as (305) 555-9101 however it was stored or typed', () => {
    for (const stored of ['+13055559101', '3055559101', '13055559101', '(305) 555-9101', '305.555.9101']) {
      expect(formatPhoneNumber(stored)).toBe('(305) 555-9101');
      expect(formatPhoneNumber(stored, 'es')).toBe('(305) 555-9101');
    }
  });

  it('keeps another country’s number in its international form, and nothing as nothing', () => {
    expect(formatPhoneNumber('+525512345678')).toBe('+525512345678');
    expect(formatPhoneNumber('+44 20 7946 0958')).toBe('+44 20 7946 0958');
    expect(formatPhoneNumber('')).toBe('');
    expect(formatPhoneNumber(null)).toBe('');
  });
});

describe('card brand and last four', () => {
  it('names the brand properly whatever code the gateway used', () => {
    expect(cardBrandName('visa')).toBe('Visa');
    expect(cardBrandName('VISA')).toBe('Visa');
    expect(cardBrandName('MC')).toBe('Mastercard');
    expect(cardBrandName('mastercard')).toBe('Mastercard');
    expect(cardBrandName('AMEX')).toBe('American Express');
    expect(cardBrandName('American Express')).toBe('American Express');
    expect(cardBrandName('discover')).toBe('Discover');
    expect(cardBrandName('Diners-Club')).toBe('Diners Club');
    expect(cardBrandName('Elo')).toBe('Elo');
    expect(cardBrandName(null)).toBe('');
  });

  it('reads "Visa •••• 0002"', () => {
    expect(formatCard('visa', '0002')).toBe('Visa •••• 0002');
    expect(formatCard(null, '0002')).toBe('•••• 0002');
    expect(formatCard('visa', null)).toBe('Visa');
  });
});
