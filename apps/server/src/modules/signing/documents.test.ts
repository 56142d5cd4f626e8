import { describe, expect, it } from 'vitest';
import { signsAs } from './documents.js';

describe('signsAs: whether an earlier signature belongs to this document’s signer (issue 29, item 12)', () => {
  it('matches the name on file inside the name signed with, whatever the accents, case and middle names', () => {
    expect(signsAs('María López', 'María P. López')).toBe(true);
    expect(signsAs('Maria Lopez', 'MARÍA LÓPEZ')).toBe(true);
    expect(signsAs('Ana Ruiz', 'Ana María Ruiz')).toBe(true);
  });

  it('refuses another person, a part of the name, and an empty name on file', () => {
    expect(signsAs('María López', 'José García')).toBe(false);
    expect(signsAs('María López', 'María')).toBe(false);
    expect(signsAs('', 'María López')).toBe(false);
  });
});
