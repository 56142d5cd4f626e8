import type { PracticeSettings } from '@paylink/shared';
import type { Config } from '../../config.js';
import { sql } from 'kysely';
import type { Queryable } from '../../db/client.js';
import { typed, type Row } from '../../db/typed.js';
import { writeAudit } from '../../lib/audit.js';
import { forgetPracticeRows, practiceRows } from '../../lib/practice-rows.js';
import type { Actor } from '../../lib/audit.js';
import { messageZoneFor, type MessageZoneSource } from '../../lib/time-zones.js';

type OverrideRow = Row<'practice_override'>;

/** The env's values: the defaults the console can override (docs/decisions/0133). */
function defaultSettings(config: Config): PracticeSettings {
  return {
    name: config.PRACTICE_NAME,
    phone: config.PRACTICE_PHONE,
    email: config.PRACTICE_EMAIL,
    logoUrl: config.PRACTICE_LOGO_URL ?? null,
    timeZone: config.PRACTICE_TIME_ZONE ?? Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC',
  };
}

/**
 * The effective settings, the env's defaults and the console's overrides. From this process's copy (issue 30,
 * decision 0225: a change from another process shows within PRACTICE_ROWS_TTL_MS); `fresh` reads the database now.
 */
export async function practiceSettings(q: Queryable, config: Config, opts: { fresh?: boolean } = {}) {
  const defaults = defaultSettings(config);
  const o: OverrideRow | null = (await practiceRows(q, opts)).override;
  const overrides = {
    name: o?.name ?? null,
    phone: o?.support_phone ?? null,
    email: o?.support_email ?? null,
    logoUrl: o?.logo_url ?? null,
    timeZone: o?.time_zone ?? null,
  };
  const effective: PracticeSettings = {
    name: overrides.name ?? defaults.name,
    phone: overrides.phone ?? defaults.phone,
    email: overrides.email ?? defaults.email,
    logoUrl: overrides.logoUrl ?? defaults.logoUrl,
    timeZone: overrides.timeZone ?? defaults.timeZone,
  };
  return { effective, defaults, overrides, updatedAt: o?.updated_at ? new Date(o.updated_at).toISOString() : null };
}

/** The practice's time zone for reports (override, else PRACTICE_TIME_ZONE, else the server's). */
export async function practiceTimeZone(q: Queryable, config: Config): Promise<string> {
  return (await practiceSettings(q, config)).effective.timeZone;
}

const COLUMNS = {
  name: 'name',
  phone: 'support_phone',
  email: 'support_email',
  logoUrl: 'logo_url',
  timeZone: 'time_zone',
} as const;

/** An admin's change: absent fields kept, null = back to the env default. Audited with the before/after values. */
export async function updatePracticeSettings(
  q: Queryable,
  opts: { config: Config; actor: Actor; userId: string; changes: Partial<Record<keyof typeof COLUMNS, string | null>> },
) {
  const before = await practiceSettings(q, opts.config, { fresh: true });
  const db = typed(q);
  await db
    .insertInto('practice_override')
    .values({ id: 1 })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  const sets: Partial<Record<(typeof COLUMNS)[keyof typeof COLUMNS], string | null>> = {};
  for (const [k, col] of Object.entries(COLUMNS) as [keyof typeof COLUMNS, (typeof COLUMNS)[keyof typeof COLUMNS]][]) {
    if (opts.changes[k] !== undefined) sets[col] = opts.changes[k];
  }
  await db
    .updateTable('practice_override')
    .set({ ...sets, updated_at: sql`now()`, updated_by: opts.userId })
    .where('id', '=', 1)
    .execute();
  forgetPracticeRows(q);
  const after = await practiceSettings(q, opts.config, { fresh: true });
  const short = (v: string | null) => (v && v.length > 200 ? `${v.slice(0, 40)}…(${v.length} chars)` : v);
  const changed = Object.fromEntries(
    (Object.keys(COLUMNS) as (keyof typeof COLUMNS)[])
      .filter((k) => before.overrides[k] !== after.overrides[k])
      .map((k) => [k, { from: short(before.overrides[k]), to: short(after.overrides[k]) }]),
  );
  await writeAudit(q, { ...opts.actor, action: 'practice.settings_changed', details: { changed } });
  return after;
}

/**
 * A link's zone for messages and quiet hours (decision 0217): its address, else its phone's area code, else the
 * practice's effective zone (console setting, then PRACTICE_TIME_ZONE, then the server's). Reminders, link sends and
 * the plan scheduler all ask here.
 */
export async function messageTimeZone(
  q: Queryable,
  config: Config,
  link: { state?: string | null; zip_code?: string | null; phone?: string | null },
): Promise<{ timeZone: string; source: MessageZoneSource }> {
  return messageZoneFor(link, await practiceTimeZone(q, config));
}
