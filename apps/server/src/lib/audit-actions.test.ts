import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PATIENT_ACTIVITY_READS, PATIENT_READ_ACTIONS, STAFF_READ_ACTIONS } from './audit.js';

/**
 * Issue 29, item 1: `admin.refunds_viewed` was missing from the staff reads, so every poll of an open link page
 * counted as a change, refetched the page and wrote more reads. Every audit action whose name says it reads is found
 * in the server's source here, and must be classified; every classified name must still be written somewhere.
 */
const SRC = path.resolve(import.meta.dirname, '..');
const READ_NAME = /(?:^|[._])(viewed|listed|read|downloaded|exported)$/;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

/** The action names the product writes: the quoted names in every `action: …` expression. */
function writtenActions(): Set<string> {
  const names = new Set<string>();
  for (const file of sourceFiles(SRC)) {
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\baction:\s*([^,\n}]+)/g)) {
      for (const q of m[1]!.matchAll(/'([a-z_]+\.[a-z_]+)'/g)) names.add(q[1]!);
    }
  }
  return names;
}

describe('audit actions that read', () => {
  const written = writtenActions();
  const classified = new Set([...STAFF_READ_ACTIONS, ...PATIENT_READ_ACTIONS, ...PATIENT_ACTIVITY_READS]);

  it('finds the actions in the source (the scan works)', () => {
    expect(written.size).toBeGreaterThan(50);
    expect(written).toContain('admin.refunds_viewed');
    expect(written).toContain('payment.refunded');
  });

  it('classifies every read: a staff read, a repeated patient read or a patient activity', () => {
    const reads = [...written].filter((a) => READ_NAME.test(a));
    expect(reads.filter((a) => !classified.has(a))).toEqual([]);
  });

  it('names no read that the product no longer writes', () => {
    expect([...classified].filter((a) => !written.has(a))).toEqual([]);
  });
});
