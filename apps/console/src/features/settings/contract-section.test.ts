import { describe, expect, it } from 'vitest';
import { formatBytes } from './contract-section';

describe('contract file sizes', () => {
  it('shows KB below a megabyte and MB above, in the UI language', () => {
    expect(formatBytes(245_760, 'en-US')).toBe('240 KB');
    expect(formatBytes(3_500, 'en-US')).toBe('3.4 KB');
    expect(formatBytes(12, 'en-US')).toBe('0.1 KB');
    expect(formatBytes(1_258_291, 'en-US')).toBe('1.2 MB');
    expect(formatBytes(1_258_291, 'es-US')).toBe('1.2 MB');
    expect(formatBytes(15 * 1024 * 1024, 'en-US')).toBe('15 MB');
  });
});
