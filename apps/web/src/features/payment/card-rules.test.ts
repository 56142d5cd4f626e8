import { describe, expect, it } from 'vitest';
import {
  caretAfterDigits,
  detectCardBrand,
  expiryToYYMM,
  formatCardNumber,
  normalizeExpiry,
  sanitizeCardNumber,
  splitFullName,
  validateCardNumber,
  validateCvc,
  validateExpiry,
} from './card-rules';

// 15 March 2026: current two-digit year 26, current month 03.
const now = new Date(2026, 2, 15);

describe('validateExpiry (MMYY)', () => {
  it.each([
    ['', 'expiry.empty'],
    ['12/2', 'noSpecialCharacters'],
    ['1a', 'noSpecialCharacters'],
    [' 128', 'noSpecialCharacters'],
    ['00', 'expiry.month'],
    ['13', 'expiry.month'],
    ['1328', 'expiry.month'],
    ['0028', 'expiry.month'],
    ['1', 'expiry.format'],
    ['12', 'expiry.format'],
    ['122', 'expiry.format'],
    ['1225', 'expiry.year'],
    ['0100', 'expiry.year'],
    ['0226', 'expiry.date'],
    ['0126', 'expiry.date'],
  ])('%j → %s', (value, message) => {
    expect(validateExpiry(value, now)).toBe(message);
  });

  it.each(['0326', '1226', '0127', '1299', '0930'])('%s is accepted', (value) => {
    expect(validateExpiry(value, now)).toBeNull();
  });

  it('the current month of the current year is still valid, the month before is not', () => {
    const dec = new Date(2030, 11, 1);
    expect(validateExpiry('1230', dec)).toBeNull();
    expect(validateExpiry('1130', dec)).toBe('expiry.date');
    expect(validateExpiry('0131', dec)).toBeNull();
  });

  it('converts to the 3-D Secure YYMM form', () => {
    expect(expiryToYYMM('0728')).toBe('2807');
  });
});

describe('validateCvc', () => {
  it.each([
    ['', 'cvc.empty'],
    ['1', 'cvc.length'],
    ['12', 'cvc.length'],
    ['12a', 'noSpecialCharacters'],
    ['1 3', 'noSpecialCharacters'],
    ['12345', 'cvc.length'],
  ])('%j → %s', (value, message) => {
    expect(validateCvc(value)).toBe(message);
  });
  it.each(['123', '1234', '000'])('%s is accepted', (value) => {
    expect(validateCvc(value)).toBeNull();
  });
});

describe('card number', () => {
  it('keeps digits only, at most 16', () => {
    expect(sanitizeCardNumber('4000 0000-0000 0002')).toBe('4000000000000002');
    expect(sanitizeCardNumber('4111111111111111999')).toBe('4111111111111111');
    expect(sanitizeCardNumber('abc')).toBe('');
  });
  it('needs at least 13 digits to submit', () => {
    expect(validateCardNumber('')).toBe('cardNumber.required');
    expect(validateCardNumber('400000000000')).toBe('cardNumber.tooShort');
    expect(validateCardNumber('4000000000000')).toBeNull();
    expect(validateCardNumber('4000000000000002')).toBeNull();
  });
});

describe('detectCardBrand', () => {
  it.each([
    ['378282246310005', 'amex', [15]],
    ['341111111111111', 'amex', [15]],
    ['30569309025904', 'dinersCarteBlanche', [14]],
    ['36148900647913', 'dinersInternational', [14]],
    ['3530111333300000', 'jcb', [16]],
    ['6304000000000000', 'laser', [16, 17, 18, 19]],
    ['4026000000000002', 'visaElectron', [16]],
    ['4917300800000000', 'visaElectron', [16]],
    ['4000000000000002', 'visa', [16]],
    ['5413330089604111', 'mastercard', [16]],
    ['2223000048400011', 'mastercard', [16]],
    ['6759649826438453', 'maestro', [12, 13, 14, 15, 16, 17, 18, 19]],
    ['5018000000000009', 'maestro', [12, 13, 14, 15, 16, 17, 18, 19]],
    ['6011111111111117', 'discover', [16]],
    ['6500000000000002', 'discover', [16]],
    ['6221260000000000', 'discover', [16]],
  ])('%s is %s with lengths %j', (number, brand, lengths) => {
    const info = detectCardBrand(number);
    expect(info?.brand).toBe(brand);
    expect(info?.lengths).toEqual(lengths);
    expect(info?.lengthValid).toBe(lengths.includes(number.length));
  });

  it('reports whether the typed length fits the brand', () => {
    expect(detectCardBrand('4000')).toMatchObject({ brand: 'visa', lengthValid: false });
    expect(detectCardBrand('37828224631000')).toMatchObject({ brand: 'amex', lengthValid: false });
    expect(detectCardBrand('3782822463100')).toMatchObject({ brand: 'amex', lengthValid: false });
    expect(detectCardBrand('675964982643')).toMatchObject({ brand: 'maestro', lengthValid: true });
  });

  it('is null for nothing typed or an unknown prefix', () => {
    expect(detectCardBrand('')).toBeNull();
    expect(detectCardBrand('9999')).toBeNull();
    expect(detectCardBrand('1234567890123')).toBeNull();
  });
});

describe('splitFullName', () => {
  it.each([
    ['Mary Ann Smith', { first: 'Mary Ann', last: 'Smith' }],
    ['  Jane   Doe ', { first: 'Jane', last: 'Doe' }],
    ['Cher', { first: '', last: 'Cher' }],
    ['', { first: '', last: '' }],
  ])('%j', (name, parts) => {
    expect(splitFullName(name)).toEqual(parts);
  });
});

describe('phone-friendly entry (issue 16)', () => {
  it.each([
    ['12/28', '1228'],
    ['12 / 28', '1228'],
    ['12-28', '1228'],
    ['1/28', '0128'],
    ['12/2028', '1228'],
    ['122028', '1228'],
    ['12 28', '1228'],
    ['12/', '12'],
    ['12345', '1234'],
    ['12a', '12a'],
  ])('expiry %j is stored as %j', (typed, stored) => {
    expect(normalizeExpiry(typed)).toBe(stored);
  });

  it('groups card numbers as printed', () => {
    expect(formatCardNumber('4000000000000002')).toBe('4000 0000 0000 0002');
    expect(formatCardNumber('40000')).toBe('4000 0');
    expect(formatCardNumber('378282246310005')).toBe('3782 822463 10005');
    expect(formatCardNumber('')).toBe('');
    expect(caretAfterDigits('4000 0000 0', 5)).toBe(6);
    expect(caretAfterDigits('4000 0000 0', 0)).toBe(0);
  });
});
