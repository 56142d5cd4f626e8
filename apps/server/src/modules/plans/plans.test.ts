import { addDays, isoDateInZone } from '@paylink/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '../../lib/audit.js';
import { practiceTimeZone } from '../app-config/index.js';
import { staffToken } from '../../seed/seed-staff.js';
import { createTestApp } from '../../../test/support/context.js';
import { snapshotLinkData } from '../../../test/support/links.js';
import { materialisePlan } from './index.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
let auth: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://pay.example.com' });
  auth = { authorization: `Bearer ${await staffToken(t.ctx.db, { email: 'coord@example.com', role: 'coordinator' })}` };
});
afterAll(async () => t.close());

const api = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: auth, ...(payload !== undefined ? { payload: payload as object } : {}) });

const patient = { firstName: 'Ana', lastName: 'Diaz', phone: '512-555-0147' };
const single = { total: 5000, kind: 'single', dueOn: '2098-01-15' };
const monthly = { total: 5000, kind: 'installments', count: 3, every: 'month', firstDueOn: '2098-01-31' };

async function createWithPlan(plan: unknown, extra: Record<string, unknown> = {}) {
  const r = await api('POST', '/api/admin/links', { ...patient, ...extra, plan });
  expect(r.statusCode, r.body).toBe(201);
  return r.json().id as string;
}
const show = async (id: string) => (await api('GET', `/api/admin/links/${id}`)).json();

describe('creating a link with a plan (admin API)', () => {
  it('stores a single balance charge and shows it projected for balance = total', async () => {
    const id = await createWithPlan(single);
    const { plan, timeline } = await show(id);
    expect(plan).toMatchObject({
      kind: 'single',
      status: 'pending',
      every: null,
      total: 5000,
      balance: 5000,
      deposit: null,
      projected: true,
      installments: [{ n: 1, dueOn: '2098-01-15', amount: 5000, status: 'scheduled' }],
    });
    const created = timeline.find((e: { action: string }) => e.action === 'plan.created');
    expect(created).toMatchObject({ actorType: 'staff', details: { totalCents: 500_000, kind: 'single' } });
    const row = await t.ctx.db.query(
      `select total_cents::int as total, kind, installment_count, every, first_due_on::text as due, created_by
       from payment_plan where link_id = $1`,
      [id],
    );
    expect(row.rows[0]).toMatchObject({
      total: 500_000,
      kind: 'single',
      installment_count: 1,
      every: null,
      due: '2098-01-15',
    });
    expect((row.rows[0] as { created_by: string }).created_by).toBeTruthy();
    // Nothing is stored per instalment until the deposit is approved.
    expect((await t.ctx.db.query(`select 1 from plan_installment`)).rowCount).toBe(0);
  });

  it('projects instalments in exact cents with month-end dates', async () => {
    const id = await createWithPlan(monthly);
    expect((await show(id)).plan).toMatchObject({
      kind: 'installments',
      every: 'month',
      projected: true,
      installments: [
        { n: 1, dueOn: '2098-01-31', amount: 1666.66, status: 'scheduled' },
        { n: 2, dueOn: '2098-02-28', amount: 1666.66, status: 'scheduled' },
        { n: 3, dueOn: '2098-03-31', amount: 1666.68, status: 'scheduled' },
      ],
    });
  });

  it('shows plan: null for a link without one', async () => {
    const r = await api('POST', '/api/admin/links', patient);
    expect((await show(r.json().id)).plan).toBeNull();
  });

  it('refuses bad plans with 400 naming the field, and creates nothing', async () => {
    const before = await snapshotLinkData(t.ctx.db);
    const plans = async () => (await t.ctx.db.query('select 1 from payment_plan')).rowCount;
    const planCount = await plans();
    const tz = await practiceTimeZone(t.ctx.db, t.ctx.config);
    const today = isoDateInZone(new Date(), tz);
    const bad: [unknown, Record<string, unknown>, string][] = [
      [{ ...single, total: 250 }, {}, 'plan.total'],
      [{ ...single, total: 400 }, { isPaymentLinkLocked: true }, 'plan.total'],
      [{ ...single, total: 20_000.01 }, {}, 'plan.total'],
      [{ ...single, total: '5000' }, {}, 'plan.total'],
      [{ ...single, total: 5000.001 }, {}, 'plan.total'],
      [{ ...single, dueOn: today }, {}, 'plan.dueOn'],
      [{ ...single, dueOn: addDays(today, -3) }, {}, 'plan.dueOn'],
      [{ ...single, dueOn: '2098-02-30' }, {}, 'plan.dueOn'],
      [{ ...monthly, firstDueOn: addDays(today, -1) }, {}, 'plan.firstDueOn'],
      [{ ...monthly, count: 1 }, {}, 'plan.count'],
      [{ ...monthly, count: 25 }, {}, 'plan.count'],
      [{ ...monthly, every: 'day' }, {}, 'plan.every'],
      [{ ...single, kind: 'weekly' }, {}, 'plan.kind'],
      [{ ...single, count: 3 }, {}, 'plan'],
      ['5000', {}, 'plan'],
    ];
    for (const [plan, extra, field] of bad) {
      const r = await api('POST', '/api/admin/links', { ...patient, ...extra, plan });
      expect(r.statusCode, JSON.stringify(plan)).toBe(400);
      expect(r.json().error).toBe('invalid_request');
      expect(Object.keys(r.json().fields), JSON.stringify(plan)).toContain(field);
    }
    expect(await snapshotLinkData(t.ctx.db)).toBe(before);
    expect(await plans()).toBe(planCount);
  });
});

describe('materialisePlan (at the deposit approval)', () => {
  it('stores the balance as scheduled instalments once, each with its own merchant transaction id', async () => {
    const id = await createWithPlan({ ...monthly, count: 4, every: 'two_weeks', firstDueOn: '2098-05-01' });
    const run = () =>
      t.ctx.db.transaction((tx) => materialisePlan({ tx, actor: SYSTEM_ACTOR, linkId: id, paidCents: 100_000 }));
    expect(await run()).toBe('active');
    expect(await run()).toBe('already');
    const { plan } = await show(id);
    expect(plan).toMatchObject({
      status: 'active',
      total: 5000,
      deposit: 1000,
      balance: 4000,
      projected: false,
      installments: [
        { n: 1, dueOn: '2098-05-01', amount: 1000, status: 'scheduled' },
        { n: 2, dueOn: '2098-05-15', amount: 1000, status: 'scheduled' },
        { n: 3, dueOn: '2098-05-29', amount: 1000, status: 'scheduled' },
        { n: 4, dueOn: '2098-06-12', amount: 1000, status: 'scheduled' },
      ],
    });
    const ids = await t.ctx.db.query<{ merchant_txn_id: string }>(
      `select i.merchant_txn_id from plan_installment i join payment_plan p on p.id = i.plan_id where p.link_id = $1`,
      [id],
    );
    expect(new Set(ids.rows.map((r) => r.merchant_txn_id)).size).toBe(4);
  });

  it('completes a plan the deposit paid in full, and ignores links without a plan', async () => {
    const id = await createWithPlan({ ...single, total: 800 });
    const paidAll = await t.ctx.db.transaction((tx) =>
      materialisePlan({ tx, actor: SYSTEM_ACTOR, linkId: id, paidCents: 80_000 }),
    );
    expect(paidAll).toBe('completed');
    expect((await show(id)).plan).toMatchObject({ status: 'completed', balance: 0, installments: [] });
    const plain = (await api('POST', '/api/admin/links', patient)).json().id;
    expect(
      await t.ctx.db.transaction((tx) => materialisePlan({ tx, actor: SYSTEM_ACTOR, linkId: plain, paidCents: 500 })),
    ).toBe('no_plan');
  });
});
