import { z } from 'zod';
import { addDays, isIsoDate, planEverySchema, planInputSchema, type PlanEvery } from './plans.js';

/**
 * The practice's default plans (issue 28, decision 0212): named shapes a coordinator starts from on the new-link form
 * ("Balance 21 days before the surgery date", "3 monthly instalments"). A template holds no money: the total is the
 * patient's quote. Its dates are relative — days before the surgery date, or days after today — and become the
 * plan's absolute dates on the form, where the coordinator can still change them; the server checks the plan itself
 * with planInputSchema and planProblems as always.
 */

export const PLAN_TEMPLATES_MAX = 20;
export const PLAN_TEMPLATE_MAX_DAYS = 365;

const days = (field: string) =>
  z
    .number({ error: `${field} must be a whole number of days from 1 to ${PLAN_TEMPLATE_MAX_DAYS}` })
    .int(`${field} must be a whole number of days from 1 to ${PLAN_TEMPLATE_MAX_DAYS}`)
    .min(1, `${field} must be a whole number of days from 1 to ${PLAN_TEMPLATE_MAX_DAYS}`)
    .max(PLAN_TEMPLATE_MAX_DAYS, `${field} must be a whole number of days from 1 to ${PLAN_TEMPLATE_MAX_DAYS}`);

const name = z
  .string()
  .trim()
  .max(80, 'name must be at most 80 characters')
  .nullable()
  .describe(
    "The practice's name for it; null or empty = the console names it from its shape in the reader's language.",
  );

// The instalment count is planInputSchema's own rule (2 to 24), so a template can never hold a plan the server refuses.
const installmentsInput = planInputSchema.options[1];

export const planTemplateSchema = z.discriminatedUnion(
  'kind',
  [
    z
      .object({
        name,
        kind: z.literal('single').describe('The balance in one charge, daysBeforeSurgery days before the surgery.'),
        daysBeforeSurgery: days('daysBeforeSurgery'),
      })
      .strict(),
    z
      .object({
        name,
        kind: z.literal('installments').describe('The balance in `count` installments.'),
        count: installmentsInput.shape.count,
        every: planEverySchema,
        firstDueAfterDays: days('firstDueAfterDays').describe('The first installment, this many days after today.'),
      })
      .strict(),
  ],
  { error: "kind must be 'single' or 'installments'" },
);
export type PlanTemplate = z.infer<typeof planTemplateSchema>;

/** PUT /api/admin/settings/plans (admins): the whole list, in the order the new-link form offers it. */
export const planTemplatesBodySchema = z
  .object({
    templates: z.array(planTemplateSchema).max(PLAN_TEMPLATES_MAX, `at most ${PLAN_TEMPLATES_MAX} default plans`),
  })
  .strict()
  .superRefine((v, ctx) => {
    const seen = new Set<string>();
    v.templates.forEach((t, i) => {
      const key = t.name?.toLowerCase();
      if (!key) return;
      if (seen.has(key))
        ctx.addIssue({ code: 'custom', path: ['templates', i, 'name'], message: 'name is used twice' });
      seen.add(key);
    });
  });
export type PlanTemplatesBody = z.infer<typeof planTemplatesBodySchema>;

export const planTemplatesResultSchema = z.object({
  templates: z.array(planTemplateSchema),
  source: z.enum(['practice', 'default']).describe("practice = saved in the console; default = Paylink's two examples"),
  updatedAt: z.string().nullable(),
});
export type PlanTemplatesResult = z.infer<typeof planTemplatesResultSchema>;

/** What the product offers until an admin saves the practice's own list. */
export const DEFAULT_PLAN_TEMPLATES: PlanTemplate[] = [
  { name: null, kind: 'single', daysBeforeSurgery: 21 },
  { name: null, kind: 'installments', count: 3, every: 'month', firstDueAfterDays: 30 },
];

/** A template's plan fields on a given day: the balance date from the surgery date, or the first date from today. */
export type PlanTemplateFields =
  | { kind: 'single'; dueOn: string | null }
  | { kind: 'installments'; count: number; every: PlanEvery; firstDueOn: string };

export function planFieldsFromTemplate(
  t: PlanTemplate,
  o: { today: string; surgeryDate?: string | null },
): PlanTemplateFields {
  if (t.kind === 'installments') {
    return { kind: 'installments', count: t.count, every: t.every, firstDueOn: addDays(o.today, t.firstDueAfterDays) };
  }
  const surgery = o.surgeryDate && isIsoDate(o.surgeryDate) ? o.surgeryDate : null;
  return { kind: 'single', dueOn: surgery ? addDays(surgery, -t.daysBeforeSurgery) : null };
}
