import { z } from 'zod';
import { amountRule, AmountRanges, dollarsToCents } from './amounts.js';

/**
 * Payment plans (issue 28; decision 0204): a link's total price (the quote), the deposit the patient pays now, and
 * the balance (total − paid) as one charge on a date or as 2 to 24 instalments. The rules live here once, for the
 * server, the console and the CLI. Dollars on the wire like the rest of the admin API; integer cents in the database
 * and in every computation below.
 */

export const PLAN_MAX_INSTALLMENTS = 24;
export const planEveryValues = ['week', 'two_weeks', 'month'] as const;
export const planEverySchema = z.enum(planEveryValues);
export type PlanEvery = z.infer<typeof planEverySchema>;

export const planStatusSchema = z.enum(['pending', 'active', 'paused', 'cancelled', 'completed']);
export type PlanStatus = z.infer<typeof planStatusSchema>;
export const installmentStatusSchema = z.enum(['scheduled', 'notified', 'paid', 'failed', 'cancelled', 'refunded']);
export type InstallmentStatus = z.infer<typeof installmentStatusSchema>;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date written YYYY-MM-DD (2027-02-30 is not one). */
export function isIsoDate(text: string): boolean {
  const m = ISO_DATE.exec(text);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

const isoDateSchema = (field: string) =>
  z
    .string({ error: `${field} must be a date like 2027-01-15` })
    .refine(isIsoDate, `${field} must be a date like 2027-01-15`);

const toUtc = (iso: string) => {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  return { y, m: m - 1, d };
};
const fromUtc = (date: Date) => date.toISOString().slice(0, 10);

/** The date `days` days after `iso` (calendar days; no clock involved). */
export function addDays(iso: string, days: number): string {
  const { y, m, d } = toUtc(iso);
  return fromUtc(new Date(Date.UTC(y, m, d + days)));
}

/** `months` months after `iso` on the same day of the month, or that month's last day when it is shorter. */
export function addMonthsClamped(iso: string, months: number): string {
  const { y, m, d } = toUtc(iso);
  const lastDay = new Date(Date.UTC(y, m + months + 1, 0)).getUTCDate();
  return fromUtc(new Date(Date.UTC(y, m + months, Math.min(d, lastDay))));
}

/** Today's date (YYYY-MM-DD) in a time zone: due dates are the practice's calendar days. */
export function isoDateInZone(at: Date, timeZone: string): string {
  // en-CA formats dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

/**
 * The balance in `count` equal parts of whole cents; the last part takes the remainder, so they sum exactly.
 * Each part is at least one cent: a balance smaller than `count` cents cannot be split.
 */
export function splitInstallments(balanceCents: number, count: number): number[] {
  if (!Number.isSafeInteger(balanceCents) || !Number.isInteger(count) || count < 1) {
    throw new RangeError('splitInstallments needs whole cents and a count of at least 1');
  }
  if (balanceCents < count) throw new RangeError(`a balance of ${balanceCents} cents cannot make ${count} parts`);
  const part = Math.floor(balanceCents / count);
  return Array.from({ length: count }, (_, i) => (i === count - 1 ? balanceCents - part * (count - 1) : part));
}

/**
 * The due dates of `count` instalments from the first one. Months step from the first date's day, clamped to each
 * month's last day (Jan 31 → Feb 28 → Mar 31), so one short month does not pull every later date back.
 */
export function installmentDates(firstDueOn: string, count: number, every: PlanEvery): string[] {
  return Array.from({ length: count }, (_, i) =>
    every === 'month' ? addMonthsClamped(firstDueOn, i) : addDays(firstDueOn, i * (every === 'week' ? 7 : 14)),
  );
}

/** The shape of a plan, without its money: one charge on a date, or N instalments every week, two weeks or month. */
export type PlanShape =
  { kind: 'single'; dueOn: string } | { kind: 'installments'; count: number; every: PlanEvery; firstDueOn: string };

export interface ScheduledInstallment {
  n: number;
  dueOn: string;
  amountCents: number;
}

/**
 * The instalments of a balance. A balance smaller than the count in cents is split into as many one-cent-or-more
 * parts as it allows (a patient's deposit may leave almost nothing); a balance of 0 has no instalments.
 */
export function planSchedule(shape: PlanShape, balanceCents: number): ScheduledInstallment[] {
  if (balanceCents <= 0) return [];
  if (shape.kind === 'single') return [{ n: 1, dueOn: shape.dueOn, amountCents: balanceCents }];
  const count = Math.min(shape.count, balanceCents);
  const amounts = splitInstallments(balanceCents, count);
  return installmentDates(shape.firstDueOn, count, shape.every).map((dueOn, i) => ({
    n: i + 1,
    dueOn,
    amountCents: amounts[i]!,
  }));
}

/** The date of a plan's first charge (the balance date of a single charge). */
export const firstDueOn = (shape: PlanShape): string => (shape.kind === 'single' ? shape.dueOn : shape.firstDueOn);

// The admin API's dollar rule (admin.ts dollarAmountSchema), repeated here: admin.ts imports this file.
const total = z
  .number({ error: 'total must be a number of dollars' })
  .min(0.01, 'total must be at least 0.01')
  .max(1_000_000, 'total is too large')
  .refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, 'total must have at most two decimals')
  .describe(
    'The total price (the quote) in US dollars; the balance charged later is total − the deposit the patient pays.',
  );

/** A plan as the admin API and the CLI send it with a new link (POST /api/admin/links, `plan`). */
export const planInputSchema = z
  .discriminatedUnion(
    'kind',
    [
      z
        .object({
          total,
          kind: z.literal('single').describe('One balance charge on dueOn.'),
          dueOn: isoDateSchema('dueOn').describe('The balance date, YYYY-MM-DD in the practice time zone.'),
        })
        .strict(),
      z
        .object({
          total,
          kind: z.literal('installments').describe('The balance in `count` installments.'),
          count: z
            .number({ error: `count must be a whole number from 2 to ${PLAN_MAX_INSTALLMENTS}` })
            .int(`count must be a whole number from 2 to ${PLAN_MAX_INSTALLMENTS}`)
            .min(2, `count must be a whole number from 2 to ${PLAN_MAX_INSTALLMENTS}`)
            .max(PLAN_MAX_INSTALLMENTS, `count must be a whole number from 2 to ${PLAN_MAX_INSTALLMENTS}`),
          every: planEverySchema.describe('week, two_weeks or month (months clamp to the last day).'),
          firstDueOn: isoDateSchema('firstDueOn').describe('The first installment date, YYYY-MM-DD.'),
        })
        .strict(),
    ],
    { error: "plan.kind must be 'single' or 'installments'" },
  )
  .describe('An optional payment plan: the deposit now, the balance later on the stored card (issue 28).');
export type PlanInput = z.infer<typeof planInputSchema>;

export const planShapeOf = (p: PlanInput): PlanShape =>
  p.kind === 'single'
    ? { kind: 'single', dueOn: p.dueOn }
    : { kind: 'installments', count: p.count, every: p.every, firstDueOn: p.firstDueOn };

/**
 * The range a plan's total must fall in on a link: more than the smallest first payment the link takes (so a balance
 * can remain), at most the largest payment the spec allows.
 */
export function planTotalRange(opts: { locked: boolean }): { minExclusive: number; max: number } {
  return { minExclusive: amountRule({ locked: opts.locked }).min, max: AmountRanges.payment.max };
}

/** The total's message when it is out of the link's range, else null. */
export function planTotalProblem(totalDollars: number, opts: { locked: boolean }): string | null {
  const { minExclusive, max } = planTotalRange(opts);
  if (totalDollars > minExclusive && totalDollars <= max) return null;
  return `total must be more than $${minExclusive} (the smallest first payment) and at most $${max.toLocaleString('en-US')}`;
}

export interface PlanProblem {
  /** Path under the plan object, e.g. ['total'] or ['dueOn']. */
  path: string[];
  message: string;
}

/**
 * Every rule that needs the link or the day: the total against the link's amount rules, the dates after today (the
 * practice's date), instalments of at least one cent. The shared schema checks the form; this the meaning.
 */
export function planProblems(plan: PlanInput, o: { locked: boolean; today: string }): PlanProblem[] {
  const problems: PlanProblem[] = [];
  const totalProblem = planTotalProblem(plan.total, o);
  if (totalProblem) problems.push({ path: ['total'], message: totalProblem });
  const shape = planShapeOf(plan);
  const dateField = plan.kind === 'single' ? 'dueOn' : 'firstDueOn';
  if (firstDueOn(shape) <= o.today) {
    problems.push({ path: [dateField], message: `${dateField} must be after today (${o.today})` });
  }
  if (plan.kind === 'installments' && dollarsToCents(plan.total) < plan.count) {
    problems.push({ path: ['count'], message: 'count is more installments than the total has cents' });
  }
  return problems;
}

export const planInstallmentViewSchema = z.object({
  n: z.number().int().describe('1 for the first installment (or the single balance charge).'),
  dueOn: z.string().describe('YYYY-MM-DD'),
  /** Dollars. */
  amount: z.number().describe('US dollars.'),
  status: installmentStatusSchema,
  /** Dollars given back of a paid instalment (partially refunded while below amount); absent when nothing was. */
  refunded: z.number().optional().describe('US dollars refunded of this installment; absent when none.'),
  /**
   * Its sale was sent to the card gateway and the answer is not known yet (decision 0237): Charge now, cancel, pause
   * and move answer 409 charge_in_progress until a scheduler pass records the gateway's answer. Absent otherwise.
   */
  chargeInProgress: z
    .literal(true)
    .optional()
    .describe(
      'true while its sale was sent to the card gateway and the answer is not known yet: do not charge it again; ' +
        'the scheduler records the answer within minutes. Absent otherwise.',
    ),
  /** ISO time until which no pass sends the sale again (the gateway's outcome window); absent when not held. */
  heldUntil: z
    .string()
    .optional()
    .describe('While chargeInProgress: the time until which the gateway may still be processing the sale (UTC).'),
});
export type PlanInstallmentView = z.infer<typeof planInstallmentViewSchema>;

/** A link's plan as staff see it (admin API `links show`, the CLI's `--json`). */
export const planViewSchema = z
  .object({
    kind: z.enum(['single', 'installments']),
    status: planStatusSchema,
    every: planEverySchema.nullable(),
    /** Dollars: the quote. */
    total: z.number().describe('US dollars: the quote.'),
    /** Dollars: total − deposit once the deposit is paid; before it, the total (projected). */
    balance: z.number().describe('US dollars: total − the paid deposit; before the deposit, the total (projected).'),
    /** Dollars, null until the deposit is paid. */
    deposit: z.number().nullable().describe('US dollars paid as the deposit; null until it is paid.'),
    projected: z
      .boolean()
      .describe('true before the deposit is paid: the installments are a projection for balance = total, not stored.'),
    installments: z.array(planInstallmentViewSchema),
    /** The card the balance is charged to; null until the deposit stores one. */
    card: z
      .object({
        brand: z.string().nullable(),
        last4: z.string().nullable(),
        expMonth: z.number().int().nullable(),
        expYear: z.number().int().nullable(),
      })
      .nullable()
      .describe('The stored card the balance is charged to (brand, last four, expiry); null until the deposit.'),
    createdAt: z.string(),
  })
  .describe("The link's payment plan (issue 28).");
export type PlanView = z.infer<typeof planViewSchema>;

export const UPCOMING_DEFAULT_DAYS = 30;
export const UPCOMING_MAX_DAYS = 90;

/** GET /api/admin/plans/upcoming: instalments due from today (the practice's date) through today + days. */
export const upcomingChargesQuerySchema = z
  .object({
    days: z.coerce
      .number()
      .int('days must be a whole number')
      .min(1, 'days must be at least 1')
      .max(UPCOMING_MAX_DAYS, `days must be at most ${UPCOMING_MAX_DAYS}`)
      .optional()
      .default(UPCOMING_DEFAULT_DAYS),
  })
  .strict();

export const upcomingChargeSchema = z.object({
  linkId: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  n: z.number().int().describe('The installment number (1 for a single balance charge).'),
  count: z.number().int().describe("The plan's number of installments."),
  dueOn: z.string().describe('YYYY-MM-DD'),
  amount: z.number().describe('US dollars.'),
  status: installmentStatusSchema,
  cardBrand: z.string().nullable(),
  cardLast4: z.string().nullable(),
  /** The card's last valid month ends before the due date: the charge will be declined unless the card is updated. */
  cardExpiresBeforeDue: z.boolean(),
  /** The gateway's words for the last declined try, while retries remain. */
  lastFailure: z.string().nullable(),
  attempts: z.number().int(),
  /** When a declined instalment is tried again (ISO 8601), else null. */
  nextAttemptAt: z.string().nullable(),
});
export type UpcomingCharge = z.infer<typeof upcomingChargeSchema>;

export const upcomingChargesResultSchema = z.object({
  from: z.string().describe('YYYY-MM-DD, today in the practice time zone.'),
  to: z.string().describe('YYYY-MM-DD, the last day included.'),
  charges: z.array(upcomingChargeSchema),
});
export type UpcomingChargesResult = z.infer<typeof upcomingChargesResultSchema>;
