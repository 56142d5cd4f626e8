/** Durations in settings: a whole number and a unit, s/m/h/d (30s, 90m, 24h, 3d). Answers seconds, or null. */
export function parseDurationSeconds(v: string): number | null {
  const m = /^(\d{1,7})\s*(s|m|h|d)$/i.exec(v.trim());
  if (!m) return null;
  const n = Number(m[1]);
  if (n <= 0) return null;
  const unit = { s: 1, m: 60, h: 3600, d: 86400 }[m[2]!.toLowerCase() as 's' | 'm' | 'h' | 'd'];
  const s = n * unit;
  return s <= 366 * 86400 ? s : null;
}

/** "off" or a duration → seconds or null (off). */
export function parseOptionalDuration(v: string): number | null | undefined {
  if (v.trim().toLowerCase() === 'off') return null;
  const s = parseDurationSeconds(v);
  return s === null ? undefined : s;
}

/** Quiet hours "21-8" (local hours: no SMS from 21:00 to 8:00) or "off". */
export function parseQuietHours(v: string): { start: number; end: number } | null | undefined {
  if (v.trim().toLowerCase() === 'off') return null;
  const m = /^(\d{1,2})\s*-\s*(\d{1,2})$/.exec(v.trim());
  if (!m) return undefined;
  const start = Number(m[1]);
  const end = Number(m[2]);
  if (start > 23 || end > 23 || start === end) return undefined;
  return { start, end };
}

/** Seconds as the shortest exact setting: 86400 → "1d", 90 → "90s". */
export function formatDuration(seconds: number): string {
  for (const [unit, n] of [
    ['d', 86400],
    ['h', 3600],
    ['m', 60],
  ] as const) {
    if (seconds % n === 0) return `${seconds / n}${unit}`;
  }
  return `${seconds}s`;
}
