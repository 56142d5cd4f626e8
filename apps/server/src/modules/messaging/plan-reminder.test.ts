import { describe, expect, it } from 'vitest';
import { planReminder, type ReminderFacts } from './plan-reminder.js';
import type { ReminderPlan } from './reminder-plan.js';
import { messageZoneFor, nextAllowedTime, timeZoneForPhone } from '../../lib/time-zones.js';

const timeZoneForLink = (link: { state: string; zip_code: string }, fallback: string) =>
  messageZoneFor(link, fallback).timeZone;

const H = 3600_000;
const DEFAULT: ReminderPlan = {
  unopenedAfter: 24 * 3600,
  stalledAfter: 48 * 3600,
  beforeExpiry: [72 * 3600, 24 * 3600],
  quietHours: { start: 21, end: 8 },
  minGap: 24 * 3600,
  source: 'env',
};
// Sent on a Monday at 10:00 in Chicago (16:00 UTC, CST = UTC-6); expires 14 days later.
const T0 = Date.parse('2026-03-02T16:00:00Z');
const facts = (f: Partial<ReminderFacts> = {}): ReminderFacts => ({
  channel: 'sms',
  timeZone: 'America/Chicago',
  lastSentAt: new Date(T0),
  expiresAt: new Date(T0 + 14 * 24 * H),
  opened: false,
  lastActivityAt: new Date(T0),
  doneKinds: [],
  lastReminderAt: null,
  ...f,
});
const at = (hours: number) => new Date(T0 + hours * H);

describe('the default reminder plan', () => {
  it('an unopened link: one reminder 24 h after sending, none before, not twice', () => {
    expect(planReminder(DEFAULT, facts(), at(23.9)).send).toBeNull();
    const d = planReminder(DEFAULT, facts(), at(24));
    expect(d.send).toEqual({ kind: 'unopened', covers: ['unopened'] });
    expect(d.nextCheckAt!.getTime()).toBeGreaterThan(at(24).getTime());
    const after = facts({ doneKinds: ['unopened'], lastReminderAt: at(24) });
    expect(planReminder(DEFAULT, after, at(47)).send).toBeNull();
  });

  it('a link stalled at a step: 48 h after the last activity, again only after new activity', () => {
    const opened = facts({ opened: true, lastActivityAt: at(30) });
    expect(planReminder(DEFAULT, opened, at(77.9)).send).toBeNull();
    const d = planReminder(DEFAULT, opened, at(78));
    expect(d.send?.kind).toBe('stalled');
    const done = facts({ opened: true, lastActivityAt: at(30), doneKinds: d.send!.covers, lastReminderAt: at(78) });
    expect(planReminder(DEFAULT, done, at(140)).send).toBeNull();
    const moved = { ...done, lastActivityAt: at(100) };
    expect(planReminder(DEFAULT, moved, at(148)).send?.kind).toBe('stalled');
  });

  it('an expiring link: 72 h and 24 h before expiry, nothing after it expired', () => {
    const quietDone = facts({ opened: true, lastActivityAt: at(1), doneKinds: [], lastReminderAt: null });
    // stalled at 49 h is covered by then; look at the expiry reminders only
    const f = { ...quietDone, doneKinds: [`stalled:${T0 + H}`] };
    expect(planReminder(DEFAULT, f, at(14 * 24 - 72 - 1)).send).toBeNull();
    const d72 = planReminder(DEFAULT, f, at(14 * 24 - 72));
    expect(d72.send).toEqual({ kind: 'expiry', covers: [`expiry:${72 * 3600}:${T0 + 14 * 24 * H}`] });
    const f2 = { ...f, doneKinds: [...f.doneKinds, ...d72.send!.covers], lastReminderAt: at(14 * 24 - 72) };
    expect(planReminder(DEFAULT, f2, at(14 * 24 - 24)).send?.kind).toBe('expiry');
    expect(planReminder(DEFAULT, facts(), at(14 * 24))).toEqual({ send: null, nextCheckAt: null });
  });

  it('a link sent with less time left than an expiry offset skips that reminder', () => {
    const short = facts({ expiresAt: new Date(T0 + 48 * H), doneKinds: ['unopened'] });
    expect(planReminder(DEFAULT, short, at(23)).send).toBeNull();
    expect(planReminder(DEFAULT, short, at(24)).send?.kind).toBe('expiry');
  });

  it('at most one reminder per minimum gap: a second due reminder waits', () => {
    const f = facts({ channel: 'email', doneKinds: ['unopened'], lastReminderAt: at(14 * 24 - 80) });
    expect(planReminder(DEFAULT, f, at(14 * 24 - 72)).send).toBeNull();
    expect(planReminder(DEFAULT, f, at(14 * 24 - 56)).send?.kind).toBe('expiry');
  });

  it('quiet hours defer an SMS to 8:00 in the patient’s zone; e-mail and `off` do not wait', () => {
    // due at 03:00 UTC = 21:00 in Chicago (CST)
    const late = facts({ lastSentAt: new Date(Date.parse('2026-03-03T03:00:00Z') - 24 * H) });
    const due = new Date('2026-03-03T03:00:00Z');
    expect(planReminder(DEFAULT, late, due).send).toBeNull();
    expect(planReminder(DEFAULT, late, due).nextCheckAt!.toISOString()).toBe('2026-03-03T04:00:00.000Z'); // hourly re-check
    expect(planReminder(DEFAULT, late, new Date('2026-03-03T13:59:00Z')).send).toBeNull();
    expect(planReminder(DEFAULT, late, new Date('2026-03-03T14:00:00Z')).send?.kind).toBe('unopened');
    expect(planReminder(DEFAULT, { ...late, channel: 'email' }, due).send?.kind).toBe('unopened');
    expect(planReminder({ ...DEFAULT, quietHours: null }, late, due).send?.kind).toBe('unopened');
    // the same instant is daytime in Honolulu (17:00)
    expect(planReminder(DEFAULT, { ...late, timeZone: 'Pacific/Honolulu' }, due).send?.kind).toBe('unopened');
  });

  it('`off` turns each reminder off', () => {
    const off: ReminderPlan = { ...DEFAULT, unopenedAfter: null, beforeExpiry: [] };
    expect(planReminder(off, facts(), at(14 * 24 - 1)).send).toBeNull();
  });
});

describe('the patient’s time zone', () => {
  it('comes from the ZIP, else the state, else the practice', () => {
    expect(timeZoneForLink({ state: 'CA', zip_code: '' }, 'America/Chicago')).toBe('America/Los_Angeles');
    expect(timeZoneForLink({ state: 'texas', zip_code: '' }, 'America/New_York')).toBe('America/Chicago');
    expect(timeZoneForLink({ state: 'TX', zip_code: '79901' }, 'America/New_York')).toBe('America/Denver'); // El Paso
    expect(timeZoneForLink({ state: '', zip_code: '10001' }, 'America/Chicago')).toBe('America/New_York');
    expect(timeZoneForLink({ state: '', zip_code: '' }, 'America/Chicago')).toBe('America/Chicago');
  });

  it("without an address: the phone's area code, then the practice's zone", () => {
    const noAddress = { state: '', zip_code: '' };
    expect(messageZoneFor({ ...noAddress, phone: '(212) 555-0100' }, 'UTC')).toEqual({
      timeZone: 'America/New_York',
      source: 'area-code',
    });
    expect(messageZoneFor({ ...noAddress, phone: '+13055559101' }, 'UTC').timeZone).toBe('America/New_York');
    expect(timeZoneForPhone('1-312-555-0100')).toBe('America/Chicago');
    expect(timeZoneForPhone('+1 (303) 555-0100')).toBe('America/Denver');
    expect(timeZoneForPhone('602 555 0100')).toBe('America/Phoenix');
    expect(timeZoneForPhone('(415) 555-0100')).toBe('America/Los_Angeles');
    expect(timeZoneForPhone('(604) 555-0100')).toBe('America/Vancouver');
    expect(timeZoneForPhone('+44 20 7946 0958')).toBeNull(); // not NANP
    expect(timeZoneForPhone('(555) 201-4567')).toBeNull(); // no such area code
    // The address wins over the area code (a New Yorker who moved to Los Angeles keeps the phone).
    expect(messageZoneFor({ state: 'CA', zip_code: '', phone: '(212) 555-0100' }, 'UTC')).toEqual({
      timeZone: 'America/Los_Angeles',
      source: 'address',
    });
    expect(messageZoneFor({ ...noAddress, phone: '(555) 201-4567' }, 'America/New_York')).toEqual({
      timeZone: 'America/New_York',
      source: 'practice',
    });
  });

  it('every area code maps to a zone this runtime knows', async () => {
    const { timeZoneForPhone: z } = await import('../../lib/time-zones.js');
    for (let a = 200; a <= 999; a++) {
      const tz = z(`(${a}) 555-0100`);
      if (tz) expect(() => new Intl.DateTimeFormat('en-US', { timeZone: tz })).not.toThrow();
    }
  });

  it('next allowed time is 8:00 local, across a DST change', () => {
    // 2026-03-08 is the US spring-forward day: 8:00 CDT = 13:00 UTC
    expect(
      nextAllowedTime(new Date('2026-03-08T05:00:00Z'), 'America/Chicago', { start: 21, end: 8 }).toISOString(),
    ).toBe('2026-03-08T13:00:00.000Z');
    expect(
      nextAllowedTime(new Date('2026-03-03T18:10:00Z'), 'America/Chicago', { start: 21, end: 8 }).toISOString(),
    ).toBe('2026-03-03T18:10:00.000Z');
  });
});
