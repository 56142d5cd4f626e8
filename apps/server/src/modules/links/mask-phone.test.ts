import { describe, expect, it } from 'vitest';
import { maskPhone } from './mask-phone.js';

describe('maskPhone', () => {
  it('keeps only the last 4 digits of US numbers in their usual layout', () => {
    expect(maskPhone('+15550104567')).toBe('(***) ***-4567');
    expect(maskPhone('(555) 010-4567')).toBe('(***) ***-4567');
  });
  it('masks other numbers without guessing a layout', () => {
    expect(maskPhone('+34612345678')).toBe('***-***-5678');
  });
  it('never echoes a short value', () => {
    expect(maskPhone('123')).toBe('****');
    expect(maskPhone('')).toBe('');
  });
});
