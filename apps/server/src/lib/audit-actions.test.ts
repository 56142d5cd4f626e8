import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeEvent } from '../modules/console/timeline.js';
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

/**
 * Issue 29, item 4: the link timeline showed codes as words ("payment session requested", "steps continue check").
 * Every action that can name a link has its own English and Spanish words. Actions never written for a link (staff
 * accounts, practice settings, webhooks, the scheduler's run) and the reads the timeline leaves out are not shown.
 */
describe('every action a link’s timeline can show has words', () => {
  const NOT_ON_A_LINK =
    /^(staff|practice|webhook|plans|test|compliance)\.|^admin\.|^export\.|^messaging\.(reminder_plan_changed|opt_outs_read)$/;
  const hidden = new Set([...STAFF_READ_ACTIONS, ...PATIENT_READ_ACTIONS]);
  const shown = [...writtenActions()].filter((a) => !NOT_ON_A_LINK.test(a) && !hidden.has(a)).concat('staff.notified');

  it.each(shown)('%s', (action) => {
    const e = describeEvent({
      id: 1,
      at: '2026-11-27T10:00:00.000Z',
      actor_type: 'system',
      actor_id: null,
      action,
      details: { amountCents: 10_000, n: 1, channel: 'sms', kind: 'paid' },
      staff_name: null,
      staff_email: null,
    });
    expect(e.text.en).not.toBe('Other event');
    expect(e.text.en).not.toBe(action.replace(/[._]/g, ' '));
    expect(e.text.es).not.toBe(e.text.en);
  });
});
