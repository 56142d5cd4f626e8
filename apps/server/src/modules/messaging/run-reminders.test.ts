import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { createTestApp } from '../../../test/support/context.js';
import { insertTestLink } from '../../../test/support/auth.js';
import { coordinator } from '../../../test/support/messaging.js';
import { runDueReminders } from './run-reminders.js';

let app: FastifyInstance;
let ctx: AppContext;
let close: () => Promise<void>;
let staff: Awaited<ReturnType<typeof coordinator>>;
const H = 3600_000;

beforeAll(async () => {
  // the default plan, quiet hours off so the test does not depend on the hour it runs at
  ({ app, ctx, close } = await createTestApp({ REMINDER_QUIET_HOURS: 'off' }));
  staff = await coordinator(ctx);
});
afterAll(async () => close());

const sendSms = async (id: string) =>
  expect(
    (
      await app.inject({
        method: 'POST',
        url: `/api/admin/links/${id}/send`,
        headers: staff.headers,
        payload: { channel: 'sms' },
      })
    ).statusCode,
  ).toBe(201);
const reminders = async (id: string) =>
  (
    await ctx.db.query<{ body_text: string }>(
      `select body_text from outbox_message where link_id = $1 and kind = 'link-reminder' order by created_at`,
      [id],
    )
  ).rows.map((r) => r.body_text);
/** The clock of a pass: hours from now. */
const later = (hours: number) => runDueReminders(ctx, { now: new Date(Date.now() + hours * H) });

/** A patient who signed in and finished the steps before `route`. */
async function stallAt(id: string, route: string) {
  const routes = [
    '/patientinfo',
    '/patientinvoicedetail',
    '/patientiddocs',
    '/patientcontract',
    '/paymentauthorization',
    '/confirmation',
  ];
  for (const [i, r] of routes.entries()) {
    const done = i < routes.indexOf(route);
    await ctx.db.query(
      `insert into link_step (link_id, position, route_path, status_id, completed_at) values ($1, $2, $3, $4, $5)`,
      [id, i + 1, r, done ? 4 : 1, done ? new Date() : null],
    );
  }
  await ctx.db.query(
    `insert into patient_session (link_id, method, expires_at) values ($1, 'test', now() + interval '1 hour')`,
    [id],
  );
}

describe('reminders on the scheduler (controllable clock)', () => {
  it('an unopened link gets one reminder after 24 h', async () => {
    const id = await insertTestLink(ctx.db, { phone: '(555) 401-0001' });
    await sendSms(id);
    await later(23);
    expect(await reminders(id)).toEqual([]);
    await later(25);
    expect(await reminders(id)).toEqual([
      expect.stringMatching(
        /^Bella Vista Plastic Surgery: Hi Ana, a reminder: your payment link is waiting\. Please confirm your details to get started\. Your link expires on \w+ \d+: http.*\/auth\?id=.* Reply STOP to opt out\.$/,
      ),
    ]);
    await later(26);
    expect(await reminders(id)).toHaveLength(1);
    const audit = await ctx.db.query(`select 1 from audit_event where link_id = $1 and action = 'link.reminded'`, [id]);
    expect(audit.rowCount).toBe(1);
  });

  it('a stalled link is reminded of the step left, in its language; ≤ 1 per 24 h', async () => {
    const en = await insertTestLink(ctx.db, { phone: '(555) 401-0002' });
    const es = await insertTestLink(ctx.db, { phone: '(555) 401-0003', language: 'es', firstName: 'Lucia' });
    await sendSms(en);
    await sendSms(es);
    await stallAt(en, '/patientcontract');
    await stallAt(es, '/paymentauthorization');
    await later(47);
    expect(await reminders(en)).toEqual([]);
    await later(49);
    expect((await reminders(en))[0]).toContain('Your contract is ready to sign.');
    expect((await reminders(es))[0]).toMatch(
      /^Bella Vista Plastic Surgery: Hola Lucia, recordatorio: Solo falta realizar su pago\. Su enlace vence el \d+ de \w+: .*&lng=es Responda STOP/,
    );
    await later(60);
    expect(await reminders(en)).toHaveLength(1);
  });

  it('none after the link is completed, cancelled or expired, or with the link’s reminders off', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const id = await insertTestLink(ctx.db, { phone: `(555) 401-010${i}` });
      await sendSms(id);
      ids.push(id);
    }
    const [completed, cancelled, expired, off] = ids as [string, string, string, string];
    await ctx.db.query(`update link set status = 'completed', completed_at = now() where id = $1`, [completed]);
    await ctx.db.query(`update link set status = 'cancelled', cancelled_at = now() where id = $1`, [cancelled]);
    await ctx.db.query(`update link set expires_at = now() + interval '2 hours' where id = $1`, [expired]);
    const sw = await app.inject({
      method: 'POST',
      url: `/api/admin/links/${off}/reminders`,
      headers: staff.headers,
      payload: { enabled: false },
    });
    expect(sw.json()).toEqual({ enabled: false });
    await later(25);
    await later(24 * 13);
    for (const id of ids) expect(await reminders(id)).toEqual([]);
    const m = (
      await app.inject({ method: 'GET', url: `/api/admin/links/${off}/messages`, headers: staff.headers })
    ).json() as { reminders: unknown };
    expect(m.reminders).toMatchObject({ enabled: false, nextCheckAt: null, sent: 0 });
  });

  it('the 72 h and 24 h before-expiry reminders of an open link', async () => {
    const id = await insertTestLink(ctx.db, { phone: '(555) 401-0200' });
    await ctx.db.query(`update link set expires_at = now() + interval '5 days' where id = $1`, [id]);
    await sendSms(id);
    await ctx.db.query(`update link set reminders_enabled = true where id = $1`, [id]);
    await later(25); // unopened
    await later(5 * 24 - 72 + 1); // 72 h before expiry
    await later(5 * 24 - 24 + 1); // 24 h before expiry
    await later(5 * 24 + 1); // expired
    const texts = await reminders(id);
    expect(texts).toHaveLength(3);
    expect(texts[0]).toContain('your payment link is waiting');
  });

  it('an admin changes the practice plan; coordinators may not', async () => {
    const plan = {
      unopenedAfter: '2h',
      stalledAfter: null,
      beforeExpiry: ['1d'],
      quietHours: { start: 20, end: 9 },
      minGap: '12h',
    };
    const denied = await app.inject({
      method: 'PUT',
      url: '/api/admin/messaging/reminder-plan',
      headers: staff.headers,
      payload: plan,
    });
    expect(denied.statusCode).toBe(403);
    const { staffToken } = await import('../../seed/seed-staff.js');
    const admin = {
      authorization: `Bearer ${await staffToken(ctx.db, { email: 'boss@practice.example', role: 'admin' })}`,
    };
    const ok = await app.inject({
      method: 'PUT',
      url: '/api/admin/messaging/reminder-plan',
      headers: admin,
      payload: plan,
    });
    expect(ok.json()).toEqual({ ...plan, source: 'practice' });
    const bad = await app.inject({
      method: 'PUT',
      url: '/api/admin/messaging/reminder-plan',
      headers: admin,
      payload: { ...plan, unopenedAfter: '2 weeks' },
    });
    expect(bad.statusCode).toBe(400);
    const id = await insertTestLink(ctx.db, { phone: '(555) 401-0300' });
    await sendSms(id);
    await runDueReminders(ctx, { now: new Date(Date.now() + 2 * H + 60_000) });
    // 2 h after sending, during the day somewhere: the reminder is out, or waiting for quiet hours to end
    const r = await ctx.db.query<{ next_check_at: Date | null; reminders_sent: number }>(
      'select next_check_at, reminders_sent from link_reminder where link_id = $1',
      [id],
    );
    expect(r.rows[0]!.reminders_sent + (r.rows[0]!.next_check_at ? 1 : 0)).toBeGreaterThanOrEqual(1);
  });
});
