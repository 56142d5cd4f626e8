import type { ReminderPlanSetting } from '@paylink/shared';
import type { Config } from '../../config.js';
import type { Queryable } from '../../db/client.js';
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

export function planFromConfig(config: Config): ReminderPlan {
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
  const r = await q.query<{
    unopened_after_seconds: number | null;
    stalled_after_seconds: number | null;
    before_expiry_seconds: number[];
    quiet_start: number | null;
    quiet_end: number | null;
    min_gap_seconds: number | null;
  }>('select * from reminder_plan where practice_id = 1');
  const row = r.rows[0];
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
  await tx.query(
    `insert into reminder_plan (practice_id, unopened_after_seconds, stalled_after_seconds, before_expiry_seconds,
       quiet_start, quiet_end, min_gap_seconds, updated_by, updated_at)
     values (1, $1, $2, $3, $4, $5, $6, $7, now())
     on conflict (practice_id) do update set unopened_after_seconds = $1, stalled_after_seconds = $2,
       before_expiry_seconds = $3, quiet_start = $4, quiet_end = $5, min_gap_seconds = $6, updated_by = $7,
       updated_at = now()`,
    [
      secs(s.unopenedAfter, 'unopenedAfter'),
      secs(s.stalledAfter, 'stalledAfter'),
      [...new Set(before)],
      s.quietHours?.start ?? null,
      s.quietHours?.end ?? null,
      secs(s.minGap, 'minGap'),
      o.actor.actorType === 'staff' ? o.actor.actorId : null,
    ],
  );
  // Plans change what is due: every link is looked at again on the next pass.
  await tx.query('update link_reminder set next_check_at = now() where next_check_at is not null');
  await writeAudit(tx, { ...o.actor, action: 'messaging.reminder_plan_changed', details: { ...s } });
}
