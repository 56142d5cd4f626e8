import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { LinkMessagesResult } from '@paylink/shared';
import type { AppContext } from '../../context.js';
import { createTestApp } from '../../../test/support/context.js';
import { insertTestLink } from '../../../test/support/auth.js';
import { coordinator } from '../../../test/support/messaging.js';
import { staffToken } from '../../seed/seed-staff.js';
import { runDueReminders } from './run-reminders.js';

// Issue 29, item 2 (decision 0217): a server in UTC, no PRACTICE_TIME_ZONE, the practice's zone set in the console
// only. Quiet hours 21-8 (the default) must be the patient's, not the server's.
let app: FastifyInstance;
let ctx: AppContext;
let close: () => Promise<void>;
let staff: Awaited<ReturnType<typeof coordinator>>;
const H = 3600_000;

beforeAll(async () => {
  ({ app, ctx, close } = await createTestApp({ REMINDER_QUIET_HOURS: '21-8', LOG_LEVEL: 'error' }));
  staff = await coordinator(ctx);
  const admin = {
    authorization: `Bearer ${await staffToken(ctx.db, { email: 'tz@practice.example', role: 'admin' })}`,
  };
  const r = await app.inject({
    method: 'PUT',
    url: '/api/admin/settings',
    headers: admin,
    payload: { timeZone: 'America/New_York' },
  });
  expect(r.statusCode).toBe(200);
  expect(r.json().defaults.timeZone).toBe('UTC'); // the server's zone: the console setting is the only one
});
afterAll(async () => close());

/** A link sent by SMS now; its unopened reminder is due 24 h later. */
async function sentLink(phone: string): Promise<string> {
  const id = await insertTestLink(ctx.db, { phone });
  const r = await app.inject({
    method: 'POST',
    url: `/api/admin/links/${id}/send`,
    headers: staff.headers,
    payload: { channel: 'sms' },
  });
  expect(r.statusCode).toBe(201);
  return id;
}

/** The first whole `hour`:00 UTC at least an hour from now. */
function nextUtcHour(hour: number): Date {
  const t = new Date(Date.now() + H);
  t.setUTCMinutes(0, 0, 0);
  while (t.getUTCHours() !== hour) t.setTime(t.getTime() + H);
  return t;
}

const localTime = (at: Date, timeZone: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);

async function reminderState(id: string) {
  const r = await ctx.db.query<{ next_check_at: Date | null; reminders_sent: number; last_reminder_at: Date | null }>(
    'select next_check_at, reminders_sent, last_reminder_at from link_reminder where link_id = $1',
    [id],
  );
  return r.rows[0]!;
}

/**
 * The unopened reminder falls due at `due` (the link was "sent" 24 h before); the scheduler then runs whenever it
 * planned to look again. Returns when the reminder went out (the pass's clock).
 */
async function firstReminderAt(id: string, due: Date): Promise<Date> {
  await ctx.db.query(`update link_reminder set last_sent_at = $2, next_check_at = $3 where link_id = $1`, [
    id,
    new Date(due.getTime() - 24 * H),
    due,
  ]);
  let at = due;
  for (let i = 0; i < 48; i++) {
    await runDueReminders(ctx, { now: at });
    const s = await reminderState(id);
    if (s.reminders_sent > 0) return new Date(s.last_reminder_at!);
    at = new Date(s.next_check_at!);
  }
  throw new Error('no reminder in 48 passes');
}

async function detail(id: string): Promise<LinkMessagesResult> {
  const r = await app.inject({ method: 'GET', url: `/api/admin/links/${id}/messages`, headers: staff.headers });
  expect(r.statusCode).toBe(200);
  return r.json();
}

describe('quiet hours in the patient’s zone (server in UTC)', () => {
  it('no address, no known area code: the practice’s console zone; held until 08:00 New York', async () => {
    const id = await sentLink('(555) 401-2901');
    // Due at 10:00 UTC: daytime on the server, 05:00 or 06:00 in New York. Held until 08:00 New York.
    const sentAt = await firstReminderAt(id, nextUtcHour(10));
    expect(localTime(sentAt, 'America/New_York')).toBe('08:00');

    const d = await detail(id);
    expect(d.reminders).toMatchObject({ timeZone: 'America/New_York', timeZoneSource: 'practice' });
  });

  it('no address: the phone’s area code before the practice’s zone (310 = Los Angeles)', async () => {
    const id = await sentLink('(310) 555-2902');
    // Due at 14:00 UTC: 09:00 or 10:00 in New York (the practice) but 06:00 or 07:00 in Los Angeles.
    const sentAt = await firstReminderAt(id, nextUtcHour(14));
    expect(localTime(sentAt, 'America/Los_Angeles')).toBe('08:00');

    const d = await detail(id);
    expect(d.reminders.timeZone).toBe('America/Los_Angeles');
    expect(d.reminders.timeZoneSource).toBe('area-code');
    // The next time Paylink may text: now, or 08:00 Los Angeles when inside the quiet hours.
    const next = new Date(d.reminders.nextTextAt!);
    expect(next.getTime()).toBeGreaterThanOrEqual(Date.now() - 60_000);
    expect(next.getTime()).toBeLessThanOrEqual(Date.now() + 12 * H);
    const hour = Number(localTime(next, 'America/Los_Angeles').slice(0, 2));
    expect(hour >= 8 && hour < 21).toBe(true);
  });

  it('the address wins over the area code; no phone, no next text', async () => {
    const id = await insertTestLink(ctx.db, { phone: '(310) 555-2903', method: 'email' });
    await ctx.db.query(`update link set state = 'TX', zip_code = '79901' where id = $1`, [id]);
    expect((await detail(id)).reminders).toMatchObject({ timeZone: 'America/Denver', timeZoneSource: 'address' });
    await ctx.db.query(`update link set phone = '' where id = $1`, [id]);
    expect((await detail(id)).reminders.nextTextAt).toBeNull();
  });
});
