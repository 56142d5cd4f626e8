import type { ReminderKind } from './message-texts.js';
import type { ReminderPlan } from './reminder-plan.js';
import { nextAllowedTime } from '../../lib/time-zones.js';

export interface ReminderFacts {
  channel: 'sms' | 'email';
  timeZone: string;
  lastSentAt: Date;
  expiresAt: Date;
  /** The patient signed in at least once. */
  opened: boolean;
  /** The latest patient activity (sign-in, step change, payment choice); the send time when none. */
  lastActivityAt: Date;
  doneKinds: string[];
  lastReminderAt: Date | null;
}

export interface ReminderDecision {
  /** Send one reminder now, of this kind; `covers` lists every due key it answers for. */
  send: { kind: ReminderKind; covers: string[] } | null;
  /** When to look at the link again (null: nothing more to plan). */
  nextCheckAt: Date | null;
}

const H = 3600_000;

/**
 * The one owner of "which reminder, when" (a pure function, so tests drive it with any clock). Candidates: unopened
 * (sent + unopenedAfter, once), stalled (last activity + stalledAfter, once per stretch of inactivity), and each
 * before-expiry offset (once per expiry date, skipped when the link was sent inside that window). A candidate waits for
 * the minimum gap after the last reminder and, for SMS, for the end of quiet hours in the patient's zone.
 */
export function planReminder(plan: ReminderPlan, f: ReminderFacts, now: Date): ReminderDecision {
  const expires = f.expiresAt.getTime();
  if (now.getTime() >= expires) return { send: null, nextCheckAt: null };
  const candidates: { key: string; kind: ReminderKind; at: number }[] = [];
  if (!f.opened && plan.unopenedAfter !== null) {
    candidates.push({ key: 'unopened', kind: 'unopened', at: f.lastSentAt.getTime() + plan.unopenedAfter * 1000 });
  }
  if (f.opened && plan.stalledAfter !== null) {
    const since = Math.max(f.lastActivityAt.getTime(), f.lastSentAt.getTime());
    candidates.push({ key: `stalled:${since}`, kind: 'stalled', at: since + plan.stalledAfter * 1000 });
  }
  for (const before of plan.beforeExpiry) {
    const at = expires - before * 1000;
    if (at <= f.lastSentAt.getTime()) continue;
    candidates.push({ key: `expiry:${before}:${expires}`, kind: 'expiry', at });
  }
  const open = candidates.filter((c) => !f.doneKinds.includes(c.key) && c.at < expires);
  const gapEnd = (from: number) => (plan.minGap === null ? 0 : from + plan.minGap * 1000);
  const allowedAt = (at: number, lastReminder: number | null) => {
    const t = Math.max(at, lastReminder === null ? 0 : gapEnd(lastReminder));
    return f.channel === 'sms' ? nextAllowedTime(new Date(t), f.timeZone, plan.quietHours).getTime() : t;
  };
  const last = f.lastReminderAt?.getTime() ?? null;
  const due = open.filter((c) => allowedAt(c.at, last) <= now.getTime());
  let send: ReminderDecision['send'] = null;
  let remaining = open;
  let lastAfter = last;
  if (due.length) {
    const pick = due.find((c) => c.kind === 'expiry') ?? due[due.length - 1]!;
    send = { kind: pick.kind, covers: due.map((c) => c.key) };
    remaining = open.filter((c) => !due.includes(c));
    lastAfter = now.getTime();
  }
  // Activity after this pass may create a stalled candidate: look again within the stall window (at most hourly).
  const recheck = now.getTime() + Math.max(1000, Math.min((plan.stalledAfter ?? 3600) * 1000, H));
  const times = remaining.map((c) => allowedAt(c.at, lastAfter)).filter((t) => t < expires);
  const next = Math.min(...times, recheck);
  return { send, nextCheckAt: next < expires ? new Date(next) : null };
}
