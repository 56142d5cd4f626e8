import { describe, expect, it } from 'vitest';
import { createLinkBodySchema } from './admin.js';
import {
  addMonthsClamped,
  installmentDates,
  isIsoDate,
  isoDateInZone,
  planInputSchema,
  planProblems,
  planSchedule,
  splitInstallments,
} from './plans.js';

describe('splitInstallments', () => {
  it('makes equal parts and gives the remainder to the last one; the parts sum exactly', () => {
    expect(splitInstallments(1000, 3)).toEqual([333, 333, 334]);
    expect(splitInstallments(400_000, 4)).toEqual([100_000, 100_000, 100_000, 100_000]);
    expect(splitInstallments(5, 5)).toEqual([1, 1, 1, 1, 1]);
    for (const [balance, count] of [
      [1_999_999, 24],
      [475_001, 7],
      [10_001, 2],
      [123_457, 13],
    ] as const) {
      const parts = splitInstallments(balance, count);
      expect(parts).toHaveLength(count);
      expect(parts.reduce((a, b) => a + b, 0)).toBe(balance);
      expect(new Set(parts.slice(0, -1)).size).toBeLessThanOrEqual(1);
      expect(parts.at(-1)!).toBeGreaterThanOrEqual(parts[0]!);
    }
  });

  it('refuses fractions of a cent and parts under a cent', () => {
    expect(() => splitInstallments(10.5, 2)).toThrow(RangeError);
    expect(() => splitInstallments(2, 3)).toThrow(RangeError);
    expect(() => splitInstallments(100, 0)).toThrow(RangeError);
  });
});

describe('installmentDates', () => {
  it('steps weeks and two weeks in calendar days, across months and years', () => {
    expect(installmentDates('2026-12-24', 3, 'week')).toEqual(['2026-12-24', '2026-12-31', '2027-01-07']);
    expect(installmentDates('2027-02-20', 3, 'two_weeks')).toEqual(['2027-02-20', '2027-03-06', '2027-03-20']);
  });

  it("clamps month steps to the month's last day without drifting later months", () => {
    expect(installmentDates('2027-01-31', 4, 'month')).toEqual([
      '2027-01-31',
      '2027-02-28',
      '2027-03-31',
      '2027-04-30',
    ]);
    expect(addMonthsClamped('2028-01-31', 1)).toBe('2028-02-29');
    expect(installmentDates('2027-11-15', 3, 'month')).toEqual(['2027-11-15', '2027-12-15', '2028-01-15']);
  });
});

describe('planSchedule', () => {
  it('is one charge of the whole balance for a single plan', () => {
    expect(planSchedule({ kind: 'single', dueOn: '2027-01-15' }, 450_000)).toEqual([
      { n: 1, dueOn: '2027-01-15', amountCents: 450_000 },
    ]);
  });

  it('numbers instalments from 1 with their dates and amounts', () => {
    expect(planSchedule({ kind: 'installments', count: 3, every: 'month', firstDueOn: '2027-01-31' }, 100_000)).toEqual(
      [
        { n: 1, dueOn: '2027-01-31', amountCents: 33_333 },
        { n: 2, dueOn: '2027-02-28', amountCents: 33_333 },
        { n: 3, dueOn: '2027-03-31', amountCents: 33_334 },
      ],
    );
  });

  it('has nothing to charge when the deposit paid it all, and fewer parts for a few cents', () => {
    expect(planSchedule({ kind: 'single', dueOn: '2027-01-15' }, 0)).toEqual([]);
    expect(planSchedule({ kind: 'installments', count: 6, every: 'week', firstDueOn: '2027-01-01' }, 2)).toEqual([
      { n: 1, dueOn: '2027-01-01', amountCents: 1 },
      { n: 2, dueOn: '2027-01-08', amountCents: 1 },
    ]);
  });
});

describe('plan input', () => {
  const single = { total: 5000, kind: 'single', dueOn: '2027-01-15' };
  const instalments = { total: 5000, kind: 'installments', count: 3, every: 'month', firstDueOn: '2027-01-15' };

  it('takes a single balance date or instalments', () => {
    expect(planInputSchema.parse(single)).toEqual(single);
    expect(planInputSchema.parse(instalments)).toEqual(instalments);
  });

  it('refuses malformed plans with a message naming the field', () => {
    const bad: [unknown, string][] = [
      [{ ...single, dueOn: '2027-02-30' }, 'dueOn'],
      [{ ...single, dueOn: '15/01/2027' }, 'dueOn'],
      [{ ...instalments, count: 1 }, 'count'],
      [{ ...instalments, count: 25 }, 'count'],
      [{ ...instalments, count: 2.5 }, 'count'],
      [{ ...instalments, every: 'day' }, 'every'],
      [{ ...single, total: 10.001 }, 'total'],
      [{ ...single, total: '5000' }, 'total'],
      [{ ...single, kind: 'weekly' }, 'kind'],
      [{ ...single, count: 3 }, ''],
    ];
    for (const [input, field] of bad) {
      const r = planInputSchema.safeParse(input);
      expect(r.success, JSON.stringify(input)).toBe(false);
      expect(r.error!.issues[0]!.path.join('.'), JSON.stringify(input)).toBe(field);
    }
  });

  it('checks the total against the link, and the dates against the practice today', () => {
    const today = '2026-11-27';
    expect(planProblems(planInputSchema.parse(single), { locked: false, today })).toEqual([]);
    const low = planInputSchema.parse({ ...single, total: 250 });
    expect(planProblems(low, { locked: false, today })[0]!.path).toEqual(['total']);
    expect(planProblems({ ...low, total: 400 }, { locked: false, today })).toEqual([]);
    expect(planProblems({ ...low, total: 400 }, { locked: true, today })[0]!.message).toMatch(/more than \$500/);
    expect(planProblems({ ...low, total: 20_000.01 }, { locked: false, today })[0]!.message).toMatch(/\$20,000/);
    const past = planInputSchema.parse({ ...instalments, firstDueOn: today });
    expect(planProblems(past, { locked: false, today })).toEqual([
      { path: ['firstDueOn'], message: 'firstDueOn must be after today (2026-11-27)' },
    ]);
  });

  it('is part of a new link, whose lock sets the smallest total', () => {
    const link = { firstName: 'A', lastName: 'B', phone: '5550101111' };
    expect(createLinkBodySchema.parse({ ...link, plan: single }).plan).toEqual(single);
    const r = createLinkBodySchema.safeParse({ ...link, isPaymentLinkLocked: true, plan: { ...single, total: 500 } });
    expect(r.error?.issues.map((i) => i.path.join('.'))).toEqual(['plan.total']);
  });
});

describe('dates', () => {
  it('knows real dates and the date in a time zone', () => {
    expect(isIsoDate('2028-02-29')).toBe(true);
    expect(isIsoDate('2027-02-29')).toBe(false);
    expect(isIsoDate('2027-1-5')).toBe(false);
    const at = new Date('2027-01-15T03:00:00Z');
    expect(isoDateInZone(at, 'UTC')).toBe('2027-01-15');
    expect(isoDateInZone(at, 'America/Los_Angeles')).toBe('2027-01-14');
  });
});
