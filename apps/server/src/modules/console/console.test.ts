import { CONSOLE_CSRF_HEADER, StepRoutes, stepRoutesFor } from '@paylink/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedLink } from '../../seed/sample-links.js';
import { ensureStaffUser, staffToken } from '../../seed/seed-staff.js';
import { createTestApp } from '../../../test/support/context.js';
import { findDigitRun } from '../../lib/digit-runs.js';
import { csvField } from './payments-report.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
let admin: Record<string, string>;
let coordA: { id: string; auth: Record<string, string> };
let coordB: { id: string; auth: Record<string, string> };

const H = 3600_000;
const BASE = Date.parse('2026-03-02T15:00:00Z'); // a Monday, 10:00 in New York

beforeAll(async () => {
  t = await createTestApp({ PRACTICE_TIME_ZONE: 'America/New_York', LOG_LEVEL: 'error' });
  admin = { authorization: `Bearer ${await staffToken(t.ctx.db, { email: 'admin@example.com', role: 'admin' })}` };
  const mk = async (email: string) => {
    const { user } = await ensureStaffUser(t.ctx.db, { email, role: 'coordinator', name: email.split('@')[0] });
    return { id: user.id, auth: { authorization: `Bearer ${await staffToken(t.ctx.db, { email })}` } };
  };
  coordA = await mk('ana@example.com');
  coordB = await mk('ben@example.com');
});
afterAll(async () => t.close());

interface Journey {
  by: string;
  first: string;
  payor?: boolean;
  /** hours after BASE */
  sent?: number;
  opened?: number;
  signedIn?: number;
  steps?: number[];
  paid?: number;
  cents?: number;
}

/** A link with its history written at chosen times, as the patient side would have left it. */
async function journey(j: Journey): Promise<string> {
  const { link } = await seedLink(t.ctx, { firstName: j.first, lastName: 'Funnel' }, { createdBy: j.by });
  const at = (h: number) => new Date(BASE + h * H).toISOString();
  const q = (sql: string, p: unknown[]) => t.ctx.db.query(sql, p);
  await q('update link set created_at = $2 where id = $1', [link.id, at(0)]);
  const audit = (action: string, h: number, actor = 'link') =>
    q(`insert into audit_event (at, actor_type, action, link_id) values ($1, $2, $3, $4)`, [
      at(h),
      actor,
      action,
      link.id,
    ]);
  if (j.sent !== undefined) await audit('link.sent', j.sent, 'staff');
  if (j.opened !== undefined) await audit('patient.phone_lookup', j.opened, 'system');
  if (j.signedIn !== undefined) {
    await q(`insert into patient_session (link_id, method, created_at, expires_at) values ($1, 'sms', $2, $2)`, [
      link.id,
      at(j.signedIn),
    ]);
    await audit('auth.sms.verified', j.signedIn);
  }
  if (j.steps) {
    const routes = stepRoutesFor(j.payor ? 2 : 1);
    await q(
      `insert into payment (link_id, payment_type_id, payment_source_id, amount_cents, created_at)
       values ($1, 1, $2, $3, $4)`,
      [link.id, j.payor ? 2 : 1, j.cents ?? 50000, at(j.steps[0] ?? 0)],
    );
    for (const [i, route] of routes.entries()) {
      const done = j.steps[i];
      await q(
        `insert into link_step (link_id, position, route_path, status_id, completed_at) values ($1, $2, $3, $4, $5)`,
        [link.id, i + 1, route, done === undefined ? 1 : 4, done === undefined ? null : at(done)],
      );
      if (done !== undefined) await audit('step.completed', done);
    }
  }
  if (j.paid !== undefined) {
    await q(
      `update payment set status = 'approved', transaction_id = $2, approval_code = 'ABC123', card_brand = 'VISA',
         card_last4 = '4242', paid_at = $3 where link_id = $1`,
      [link.id, `txn-${link.id}`, at(j.paid)],
    );
    await q(`update link set status = 'completed', completed_at = $2 where id = $1`, [link.id, at(j.paid)]);
  }
  return link.id;
}

describe('funnel', () => {
  it('counts each stage, converts between stages, medians per stage and groups stalled links by stage', async () => {
    // Coordinator A: 4 links. Coordinator B: 2 links.
    await journey({ by: coordA.id, first: 'A1', sent: 1, opened: 2, signedIn: 3, steps: [3, 4, 5, 6, 7, 8], paid: 8 });
    await journey({ by: coordA.id, first: 'A2', sent: 1, opened: 5, signedIn: 6, steps: [6, 8] });
    await journey({ by: coordA.id, first: 'A3', sent: 2, opened: 4 });
    await journey({ by: coordA.id, first: 'A4' });
    await journey({
      by: coordB.id,
      first: 'B1',
      payor: true,
      sent: 1,
      opened: 3,
      signedIn: 4,
      steps: [4, 5, 6, 7, 8, 9, 9],
      paid: 9,
    });
    await journey({ by: coordB.id, first: 'B2', sent: 1, opened: 2, signedIn: 2, steps: [2, 3, 4] });
    const r = await t.app.inject({
      url: '/api/admin/funnel?from=2026-03-02&to=2026-03-02&stalledAfterHours=24',
      headers: admin,
    });
    expect(r.statusCode, r.body).toBe(200);
    const f = r.json();
    const stage = (k: string) => f.stages.find((s: { key: string }) => s.key === k);
    expect(f.stages.map((s: { key: string; count: number }) => [s.key, s.count])).toEqual([
      ['created', 6],
      ['sent', 5],
      ['opened', 5],
      ['signed_in', 4],
      ['patientInfo', 4],
      ['invoice', 4],
      ['patientId', 3],
      ['payorId', 1],
      ['contract', 2],
      ['payment', 2],
      ['paid', 2],
    ]);
    expect(stage('sent').conversion).toBeCloseTo(5 / 6, 4);
    expect(stage('signed_in').conversion).toBeCloseTo(4 / 5, 4);
    expect(stage('patientId').conversion).toBeCloseTo(3 / 4, 4);
    // payor ID compares only links that have that step (B1): 1 of 1
    expect(stage('payorId').conversion).toBe(1);
    // sent → opened: A1 1 h, A2 4 h, A3 2 h, B1 2 h, B2 1 h → median 2 h
    expect(stage('opened').medianSeconds).toBe(2 * 3600);
    // created → sent: 1,1,2,1,1 h → 1 h
    expect(stage('sent').medianSeconds).toBe(3600);
    const a = f.byCoordinator.find(
      (c: { coordinator: { email: string } }) => c.coordinator?.email === 'ana@example.com',
    );
    expect(a.stages.map((s: { count: number }) => s.count)).toEqual([4, 3, 3, 2, 2, 2, 1, 0, 1, 1, 1]);
    // Stalled (no activity for 24 h, not paid): A2 at invoice, A3 opened, A4 created, B2 patientId
    expect(f.stalled.map((s: { stage: string; count: number }) => [s.stage, s.count])).toEqual([
      ['created', 1],
      ['opened', 1],
      ['invoice', 1],
      ['patientId', 1],
    ]);
    expect(f.stalled[0].links[0].firstName).toBe('A4');
    const onlyB = await t.app.inject({
      url: `/api/admin/funnel?from=2026-03-02&to=2026-03-02&coordinatorId=${coordB.id}`,
      headers: admin,
    });
    expect(onlyB.json().stages[0].count).toBe(2);
  });
  it('answers an empty window with zero counts, no coordinators and no stalled links', async () => {
    const r = await t.app.inject({ url: '/api/admin/funnel?from=2020-01-01&to=2020-01-31', headers: admin });
    expect(r.statusCode, r.body).toBe(200);
    const f = r.json();
    expect(f.stages.map((s: { count: number }) => s.count)).toEqual(new Array(11).fill(0));
    expect(f.stages.every((s: { conversion: null; medianSeconds: null }) => !s.conversion && !s.medianSeconds)).toBe(
      true,
    );
    expect(f.byCoordinator).toEqual([]);
    expect(f.stalled).toEqual([]);
  });
});

describe('board', () => {
  it('pages newest first, searches, filters by state, step and coordinator, and shows progress and payment', async () => {
    const { link } = await seedLink(
      t.ctx,
      { firstName: 'Zelda', lastName: "O'Hara", phone: '(555) 010-9876' },
      {
        createdBy: coordB.id,
      },
    );
    const get = (qs: string, h = admin) => t.app.inject({ url: `/api/admin/board?${qs}`, headers: h });
    const all = await get('limit=2');
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json().rows).toHaveLength(2);
    expect(all.json().rows[0].id).toBe(link.id);
    expect(all.json().total).toBeGreaterThanOrEqual(7);
    for (const q of ['zelda', "o'hara", '0109876', link.id, 'maria.lopez']) {
      const r = await get(`q=${encodeURIComponent(q)}`);
      expect(
        r.json().rows.map((x: { id: string }) => x.id),
        q,
      ).toContain(link.id);
    }
    const paid = await get('status=completed');
    expect(
      paid
        .json()
        .rows.map((x: { firstName: string }) => x.firstName)
        .sort(),
    ).toEqual(['A1', 'B1']);
    const b1 = paid.json().rows.find((x: { firstName: string }) => x.firstName === 'B1');
    expect(b1).toMatchObject({
      amount: 500,
      payer: 'payor',
      progress: { completed: 7, total: 7, reached: 'done' },
      payment: { status: 'approved', cardBrand: 'VISA', cardLast4: '4242' },
      coordinator: { email: 'ben@example.com' },
    });
    // A2 finished patient information and the invoice: now on the patient ID step (3 of 6)
    const atId = await get('step=patientId');
    const a2 = atId.json().rows.find((x: { firstName: string }) => x.firstName === 'A2');
    expect(a2.progress).toEqual({ completed: 2, total: 6, reached: 'patientId', position: 3 });
    expect(a2.lastActivityAt).toBe(new Date(BASE + 8 * H).toISOString());
    const notStarted = await get('step=not_started&coordinatorId=me', coordA.auth);
    expect(
      notStarted
        .json()
        .rows.map((x: { firstName: string }) => x.firstName)
        .sort(),
    ).toEqual(['A3', 'A4']);
    const day = await get('createdFrom=2026-03-02&createdTo=2026-03-02');
    expect(day.json().total).toBe(6);
    expect((await get('status=nope')).statusCode).toBe(400);
    const audit = await t.ctx.db.query(`select 1 from audit_event where action = 'admin.links_listed'`);
    expect(audit.rowCount).toBeGreaterThan(5);
  });

  it('answers which links changed since a cursor; staff reads do not count', async () => {
    const board = await t.app.inject({ url: '/api/admin/board?limit=1', headers: admin });
    const cursor = board.json().cursor;
    const { link } = await seedLink(t.ctx, { firstName: 'Live' });
    await t.app.inject({ url: `/api/admin/links/${link.id}/detail`, headers: admin });
    const r = await t.app.inject({
      url: `/api/admin/board/changes?since=${encodeURIComponent(cursor)}`,
      headers: admin,
    });
    expect(r.statusCode).toBe(200);
    expect(r.json().linkIds).toContain(link.id);
    await new Promise((res) => setTimeout(res, 0));
    const later = await t.ctx.db.query<{ now: Date }>(`select now() + interval '3 seconds' as now`);
    // Everything an open link page asks for when it polls: none of it is a change.
    for (const part of ['detail', 'messages', 'refunds', 'documents']) {
      const read = await t.app.inject({ url: `/api/admin/links/${link.id}/${part}`, headers: admin });
      expect(read.statusCode, `${part}: ${read.body}`).toBe(200);
    }
    const none = await t.app.inject({
      url: `/api/admin/board/changes?since=${encodeURIComponent(new Date(later.rows[0]!.now).toISOString())}`,
      headers: admin,
    });
    expect(none.json().linkIds).toEqual([]);
    expect((await t.app.inject({ url: '/api/admin/board/changes?since=yesterday', headers: admin })).statusCode).toBe(
      400,
    );
  });
});

describe('link detail', () => {
  it('shows steps, payment and a plain-language timeline with reasons; staff reads are audited, not events', async () => {
    const { link } = await seedLink(t.ctx, { firstName: 'Detail' }, { createdBy: coordA.id });
    const cancel = await t.app.inject({
      method: 'POST',
      url: `/api/admin/links/${link.id}/cancel`,
      headers: coordA.auth,
      payload: { reason: 'Patient rescheduled' },
    });
    expect(cancel.statusCode).toBe(200);
    const r = await t.app.inject({ url: `/api/admin/links/${link.id}/detail`, headers: admin });
    expect(r.statusCode, r.body).toBe(200);
    const d = r.json();
    expect(d).toMatchObject({ status: 'cancelled', firstName: 'Detail', coordinator: { email: 'ana@example.com' } });
    // Open it again, as a page left open polls: the timeline does not grow with its own reads (issue 29, item 1).
    for (const part of ['detail', 'messages', 'refunds', 'documents']) {
      await t.app.inject({ url: `/api/admin/links/${link.id}/${part}`, headers: admin });
    }
    const again = (await t.app.inject({ url: `/api/admin/links/${link.id}/detail`, headers: admin })).json();
    const kinds = d.timeline.map((e: { action: string }) => e.action);
    expect(kinds[0]).toBe('link.cancelled');
    expect(kinds).toEqual(expect.arrayContaining(['link.created', 'link.cancelled']));
    expect(again.timeline).toEqual(d.timeline);
    expect(d.timeline.filter((e: { category: string }) => e.category === 'staff_read')).toEqual([]);
    const reads = await t.ctx.db.query(`select action from audit_event where link_id = $1 and actor_type = 'staff'`, [
      link.id,
    ]);
    expect(new Set(reads.rows.map((r) => r.action))).toEqual(
      new Set([
        'link.cancelled',
        'admin.link_viewed',
        'link.messages_read',
        'admin.refunds_viewed',
        'documents.listed',
      ]),
    );
    const cancelled = d.timeline.find((e: { action: string }) => e.action === 'link.cancelled');
    expect(cancelled).toMatchObject({
      category: 'staff_action',
      actor: { type: 'staff', name: 'ana' },
      text: { en: 'Cancelled the link', es: 'Canceló el enlace' },
      note: 'Patient rescheduled',
    });

    const paid = await t.ctx.db.query<{ id: string }>(`select id from link where first_name = 'A1'`);
    const p = await t.app.inject({ url: `/api/admin/links/${paid.rows[0]!.id}/detail`, headers: admin });
    expect(p.json().payment).toMatchObject({
      status: 'approved',
      amount: 500,
      cardBrand: 'VISA',
      cardLast4: '4242',
      approvalCode: 'ABC123',
    });
    expect(p.json().steps.map((s: { key: string; status: string }) => `${s.key}:${s.status}`)).toContain(
      'contract:completed',
    );
    expect(p.json().steps[0].routePath).toBe(StepRoutes.patientInfo);
  });
});

describe('payments report and CSV export', () => {
  it('quotes CSV fields as RFC 4180 says and defuses formulas', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('Lopez, Maria')).toBe('"Lopez, Maria"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\r\nlines')).toBe('"two\r\nlines"');
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField(null)).toBe('');
    expect(csvField(12)).toBe('12');
  });

  it('totals per day and week in the practice time zone and exports dollars, ISO dates, brand + last 4', async () => {
    const id = await journey({
      by: coordA.id,
      first: 'Quote, "Q"',
      sent: 1,
      opened: 2,
      signedIn: 3,
      steps: [3, 4, 5, 6, 7, 8],
      paid: 30, // next day (Tuesday) in New York
      cents: 123456,
    });
    const rep = await t.app.inject({
      url: '/api/admin/payments/report?from=2026-03-02&to=2026-03-08&status=approved',
      headers: admin,
    });
    expect(rep.statusCode, rep.body).toBe(200);
    expect(rep.json().totals).toEqual([
      {
        period: '2026-03-03',
        approvedCount: 1,
        approvedAmount: 1234.56,
        attemptedCount: 0,
        attemptedAmount: 0,
        refundedAmount: 0,
        netAmount: 1234.56,
      },
      {
        period: '2026-03-02',
        approvedCount: 2,
        approvedAmount: 1000,
        attemptedCount: 0,
        attemptedAmount: 0,
        refundedAmount: 0,
        netAmount: 1000,
      },
    ]);
    expect(rep.json().sum).toEqual({
      approvedCount: 3,
      approvedAmount: 2234.56,
      refundedAmount: 0,
      netAmount: 2234.56,
    });
    const week = await t.app.inject({
      url: '/api/admin/payments/report?from=2026-03-02&to=2026-03-08&groupBy=week',
      headers: admin,
    });
    // A2 and B2 only chose an amount: no card was tried, so they are not attempts (issue 29, item 4).
    expect(week.json().totals[0]).toMatchObject({ period: '2026-03-02', approvedCount: 3, attemptedCount: 0 });

    const csv = await t.app.inject({
      url: '/api/admin/payments/export?from=2026-03-02&to=2026-03-08&status=approved',
      headers: coordB.auth,
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body.split('\r\n');
    expect(lines[0]).toBe(
      'link_id,patient_first_name,patient_last_name,status,amount_usd,payment_type,payer,payor_name,card_brand,' +
        'card_last4,transaction_id,approval_code,failed_attempts,coordinator,chosen_at,paid_at,' +
        'installment,due_on,installment_status,refunded_usd,plan_total_usd,plan_balance_usd,refund_state,net_usd',
    );
    expect(lines).toHaveLength(5); // header, 3 rows, trailing empty
    const row = lines.find((l) => l.startsWith(id))!;
    expect(row).toContain(',"Quote, ""Q""",Funnel,approved,1234.56,deposit,patient,,VISA,4242,');
    expect(row).toMatch(/,2026-03-03T21:00:00\.000Z,,,,0\.00,,,none,1234\.56$/);
    expect(csv.body).not.toMatch(/\b4\d{15}\b/);
    const audit = await t.ctx.db.query(`select 1 from audit_event where action = 'admin.payments_exported'`);
    expect(audit.rowCount).toBe(1);
  });

  it('a search for a card number leaves no digit run in the audit log, screen or CSV (decision 0240)', async () => {
    const q = encodeURIComponent('4111 1111 1111 1111');
    const rep = await t.app.inject({ url: `/api/admin/payments/report?q=${q}`, headers: admin });
    expect(rep.statusCode, rep.body).toBe(200);
    const csv = await t.app.inject({ url: `/api/admin/payments/export?q=${q}`, headers: admin });
    expect(csv.statusCode, csv.body).toBe(200);
    const rows = (
      await t.ctx.db.query<{ action: string; details: string }>(
        `select action, details::text as details from audit_event where action like 'admin.payments_%' order by id`,
      )
    ).rows;
    const exported = rows.filter((r) => r.action === 'admin.payments_exported').at(-1)!;
    // The search is still recorded, the number in it is not.
    expect(JSON.parse(exported.details).filters).toMatchObject({ q: '[digits removed]' });
    for (const r of rows) {
      expect(findDigitRun(r.details), `${r.action}: ${r.details}`).toBeNull();
      expect(r.details).not.toMatch(/\d{7,}|4111 1111/);
    }
  });
});

describe('staff management and practice settings', () => {
  it('an admin changes a role, deactivates (ending their tokens) and cannot remove the last admin', async () => {
    const list = await t.app.inject({ url: '/api/admin/staff', headers: admin });
    const ben = list.json().staff.find((s: { email: string }) => s.email === 'ben@example.com');
    const patch = (id: string, payload: object, h = admin) =>
      t.app.inject({ method: 'PATCH', url: `/api/admin/staff/${id}`, headers: h, payload });
    expect((await patch(ben.id, { role: 'billing' }, coordA.auth)).statusCode).toBe(403);
    const billing = await patch(ben.id, { role: 'billing' });
    expect(billing.json().role).toBe('billing');
    expect((await t.app.inject({ url: '/api/admin/board', headers: coordB.auth })).statusCode).toBe(401);
    const off = await patch(ben.id, { disabled: true });
    expect(off.json().disabledAt).toBeTruthy();
    const me = list.json().staff.find((s: { email: string }) => s.email === 'admin@example.com');
    const last = await patch(me.id, { role: 'coordinator' });
    expect(last.statusCode).toBe(409);
    expect(last.json().error).toBe('last_admin');
  });

  it('settings: env defaults, admin overrides (audited), null restores; messages use the effective name', async () => {
    const get = await t.app.inject({ url: '/api/admin/settings', headers: coordA.auth });
    expect(get.json().effective).toMatchObject({ name: 'Bella Vista Plastic Surgery', timeZone: 'America/New_York' });
    const put = (payload: object, h = admin) =>
      t.app.inject({ method: 'PUT', url: '/api/admin/settings', headers: h, payload });
    expect((await put({ name: 'Nope' }, coordA.auth)).statusCode).toBe(403);
    expect((await put({ timeZone: 'Mars/Base' })).statusCode).toBe(400);
    expect((await put({ logoUrl: 'javascript:alert(1)' })).statusCode).toBe(400);
    const changed = await put({ name: 'Clinica Sol', timeZone: 'America/Chicago' });
    expect(changed.json().effective).toMatchObject({ name: 'Clinica Sol', timeZone: 'America/Chicago' });
    expect(changed.json().defaults.name).toBe('Bella Vista Plastic Surgery');
    const cfg = await t.app.inject({ url: '/api/config', headers: { 'x-api-key': t.ctx.config.apiKey } });
    if (cfg.statusCode === 200) expect(cfg.body).toContain('Clinica Sol');
    const back = await put({ name: null });
    expect(back.json().effective.name).toBe('Bella Vista Plastic Surgery');
    const audit = await t.ctx.db.query<{ details: { changed: object } }>(
      `select details from audit_event where action = 'practice.settings_changed' order by id`,
    );
    expect(audit.rows[0]!.details.changed).toMatchObject({ name: { from: null, to: 'Clinica Sol' } });
  });
});

describe('cookie sessions on console routes', () => {
  it('needs the console header on a cookie-authenticated change', async () => {
    await ensureStaffUser(t.ctx.db, { email: 'cookie@example.com', role: 'admin', password: 'long enough password' });
    const s = await t.app.inject({
      method: 'POST',
      url: '/api/admin/session',
      payload: { email: 'cookie@example.com', password: 'long enough password' },
    });
    const cookie = `paylink_staff=${s.cookies.find((c) => c.name === 'paylink_staff')!.value}`;
    expect(
      (await t.app.inject({ method: 'PUT', url: '/api/admin/settings', headers: { cookie }, payload: {} })).statusCode,
    ).toBe(403);
    const ok = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/settings',
      headers: { cookie, [CONSOLE_CSRF_HEADER]: '1' },
      payload: {},
    });
    expect(ok.statusCode).toBe(200);
  });
});
