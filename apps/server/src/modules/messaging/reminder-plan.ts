import type { ReminderPlanSetting } from '@paylink/shared';
import type { Config } from '../../config.js';
import { sql } from 'kysely';
import type { Queryable } from '../../db/client.js';
import { typed } from '../../db/typed.js';
import { writeAudit, type AuditEvent } from '../../lib/audit.js';
import { formatDuration, parseDurationSeconds } from '../../lib/durations.js';
import { badRequest } from '../../lib/errors.js';

/** The reminder plan in seconds; null = that reminder (or quiet hours, or the gap) is off. */
export interface ReminderPlan {
  unopenedAfter: number | null;
  stalledAfter: number | null;
  beforeExpiry: number[];
  quietHours: { start: number; end: number } | null;
  minGap: number | null;
  source: 'practice' | 'env';
}

function planFromConfig(config: Config): ReminderPlan {
  return {
    unopenedAfter: config.REMINDER_UNOPENED_AFTER,
    stalledAfter: config.REMINDER_STALLED_AFTER,
    beforeExpiry: config.REMINDER_BEFORE_EXPIRY,
    quietHours: config.REMINDER_QUIET_HOURS,
    minGap: config.REMINDER_MIN_GAP,
    source: 'env',
  };
}

/** The practice's plan (set in the console) or, without one, the REMINDER_* settings. */
export async function loadReminderPlan(q: Queryable, config: Config): Promise<ReminderPlan> {
  const row = await typed(q).selectFrom('reminder_plan').selectAll().where('practice_id', '=', 1).executeTakeFirst();
  if (!row) return planFromConfig(config);
  return {
    unopenedAfter: row.unopened_after_seconds,
    stalledAfter: row.stalled_after_seconds,
    beforeExpiry: [...row.before_expiry_seconds].sort((a, b) => b - a),
    quietHours:
      row.quiet_start === null || row.quiet_end === null ? null : { start: row.quiet_start, end: row.quiet_end },
    minGap: row.min_gap_seconds,
    source: 'practice',
  };
}

export function planToSetting(p: ReminderPlan): ReminderPlanSetting & { source: 'practice' | 'env' } {
  const d = (s: number | null) => (s === null ? null : formatDuration(s));
  return {
    unopenedAfter: d(p.unopenedAfter),
    stalledAfter: d(p.stalledAfter),
    beforeExpiry: p.beforeExpiry.map(formatDuration),
    quietHours: p.quietHours,
    minGap: d(p.minGap),
    source: p.source,
  };
}

/** Saves the practice's plan (admins), audited. */
export async function saveReminderPlan(
  tx: Queryable,
  o: { setting: ReminderPlanSetting; actor: Pick<AuditEvent, 'actorType' | 'actorId' | 'requestId' | 'ip'> },
): Promise<void> {
  const secs = (v: string | null, field: string) => {
    if (v === null) return null;
    const s = parseDurationSeconds(v);
    if (s === null) throw badRequest(`${field}: use a duration like 30s, 90m, 24h or 3d`, { [field]: 'invalid' });
    return s;
  };
  const s = o.setting;
  const before = s.beforeExpiry.map((v, i) => secs(v, `beforeExpiry.${i}`)!);
  const plan = {
    unopened_after_seconds: secs(s.unopenedAfter, 'unopenedAfter'),
    stalled_after_seconds: secs(s.stalledAfter, 'stalledAfter'),
    before_expiry_seconds: [...new Set(before)],
    quiet_start: s.quietHours?.start ?? null,
    quiet_end: s.quietHours?.end ?? null,
    min_gap_seconds: secs(s.minGap, 'minGap'),
    updated_by: o.actor.actorType === 'staff' ? (o.actor.actorId ?? null) : null,
    updated_at: sql<Date>`now()`,
  };
  await typed(tx)
    .insertInto('reminder_plan')
    .values({ practice_id: 1, ...plan })
    .onConflict((oc) => oc.column('practice_id').doUpdateSet(plan))
    .execute();
  // Plans change what is due: every link is looked at again on the next pass.
  await typed(tx)
    .updateTable('link_reminder')
    .set({ next_check_at: sql`now()` })
    .where('next_check_at', 'is not', null)
    .execute();
  await writeAudit(tx, { ...o.actor, action: 'messaging.reminder_plan_changed', details: { ...s } });
}
