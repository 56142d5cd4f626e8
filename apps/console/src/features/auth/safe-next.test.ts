import { describe, expect, it } from 'vitest';
import { safeNext } from './sign-in-page';

describe('where sign-in goes next', () => {
  it('keeps a path inside the console', () => {
    expect(safeNext('/links/abc')).toBe('/links/abc');
  });
  it('never leaves the console or loops back to sign-in', () => {
    expect(safeNext('//evil.example')).toBe('/');
    expect(safeNext('https://evil.example')).toBe('/');
    expect(safeNext('/sign-in?next=/x')).toBe('/');
    expect(safeNext(null)).toBe('/');
  });
});
