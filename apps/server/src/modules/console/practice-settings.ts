import type { PracticeSettings } from '@paylink/shared';
import type { Config } from '../../config.js';
import type { Queryable } from '../../db/client.js';
import { writeAudit } from '../../lib/audit.js';
import type { Actor } from '../../lib/audit.js';

interface OverrideRow {
  name: string | null;
  support_phone: string | null;
  support_email: string | null;
  logo_url: string | null;
  time_zone: string | null;
  updated_at: Date | null;
}

/** The env's values: the defaults the console can override (docs/decisions/0133). */
export function defaultSettings(config: Config): PracticeSettings {
  return {
    name: config.PRACTICE_NAME,
    phone: config.PRACTICE_PHONE,
    email: config.PRACTICE_EMAIL,
    logoUrl: config.PRACTICE_LOGO_URL ?? null,
    timeZone: config.PRACTICE_TIME_ZONE ?? Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC',
  };
}

async function loadOverride(q: Queryable): Promise<OverrideRow | null> {
  const r = await q.query<OverrideRow>('select * from practice_override where id = 1');
  return r.rows[0] ?? null;
}

export async function practiceSettings(q: Queryable, config: Config) {
  const defaults = defaultSettings(config);
  const o = await loadOverride(q);
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
  const before = await practiceSettings(q, opts.config);
  await q.query('insert into practice_override (id) values (1) on conflict (id) do nothing');
  const sets: string[] = [];
  const params: unknown[] = [opts.userId];
  for (const [k, col] of Object.entries(COLUMNS) as [keyof typeof COLUMNS, string][]) {
    if (opts.changes[k] === undefined) continue;
    params.push(opts.changes[k]);
    sets.push(`${col} = $${params.length}`);
  }
  await q.query(
    `update practice_override set ${[...sets, 'updated_at = now()', 'updated_by = $1'].join(', ')} where id = 1`,
    params,
  );
  const after = await practiceSettings(q, opts.config);
  const short = (v: string | null) => (v && v.length > 200 ? `${v.slice(0, 40)}…(${v.length} chars)` : v);
  const changed = Object.fromEntries(
    (Object.keys(COLUMNS) as (keyof typeof COLUMNS)[])
      .filter((k) => before.overrides[k] !== after.overrides[k])
      .map((k) => [k, { from: short(before.overrides[k]), to: short(after.overrides[k]) }]),
  );
  await writeAudit(q, { ...opts.actor, action: 'practice.settings_changed', details: { changed } });
  return after;
}
