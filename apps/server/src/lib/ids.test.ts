import { LINK_ID_PATTERN } from '@paylink/shared';
import { describe, expect, it } from 'vitest';
import { newLinkId } from './ids.js';

describe('newLinkId', () => {
  it('gives unique, URL-safe ids of 22 characters that never start with "-" (read as an option by the CLI)', () => {
    // One random id in 64 used to start with '-': among 5,000, about 78 would.
    const ids = Array.from({ length: 5000 }, () => newLinkId());
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) {
      expect(id).toMatch(LINK_ID_PATTERN);
      expect(id).toHaveLength(22);
      expect(id[0]).not.toBe('-');
    }
  });
});
