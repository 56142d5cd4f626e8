import {
  DEFAULT_PLAN_TEMPLATES,
  planTemplateSchema,
  type PlanTemplatesBody,
  type PlanTemplatesResult,
} from '@paylink/shared';
import { sql } from 'kysely';
import type { Queryable } from '../../db/client.js';
import { typed } from '../../db/typed.js';
import { writeAudit, type Actor } from '../../lib/audit.js';

/**
 * The practice's default plans (decision 0212): what an admin saved in the console, else Paylink's two examples.
 * Stored rows went through the shared schema; they are read through it again so a row written by hand cannot reach
 * the console in a shape it does not know (such an entry is left out).
 */
export async function loadPlanTemplates(q: Queryable): Promise<PlanTemplatesResult> {
  const row = await typed(q)
    .selectFrom('practice_plan_template')
    .selectAll()
    .where('practice_id', '=', 1)
    .executeTakeFirst();
  if (!row) return { templates: DEFAULT_PLAN_TEMPLATES, source: 'default', updatedAt: null };
  const list = Array.isArray(row.templates) ? row.templates : [];
  return {
    templates: list.flatMap((t) => {
      const parsed = planTemplateSchema.safeParse(t);
      return parsed.success ? [parsed.data] : [];
    }),
    source: 'practice',
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

/** An admin's list replaces the practice's (an empty list offers none), audited with the list. */
export async function savePlanTemplates(
  tx: Queryable,
  o: { body: PlanTemplatesBody; actor: Actor; userId: string },
): Promise<PlanTemplatesResult> {
  // An empty name is no name: the console then names the plan from its shape, in each reader's language.
  const list = o.body.templates.map((t) => ({ ...t, name: t.name ? t.name : null }));
  const templates = JSON.stringify(list);
  const values = { templates, updated_by: o.userId, updated_at: sql<Date>`now()` };
  await typed(tx)
    .insertInto('practice_plan_template')
    .values({ practice_id: 1, ...values })
    .onConflict((oc) => oc.column('practice_id').doUpdateSet(values))
    .execute();
  await writeAudit(tx, {
    ...o.actor,
    action: 'practice.plan_templates_changed',
    details: { templates: list },
  });
  return loadPlanTemplates(tx);
}
