import { addDays, isoDateInZone } from '@paylink/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR, writeAudit } from '../../lib/audit.js';
import { staffToken } from '../../seed/seed-staff.js';
import { createTestApp } from '../../../test/support/context.js';
import { materialisePlan } from '../plans/index.js';

/**
 * The billing office's side of payment plans (issue 28; decision 0212) against the real database: the practice's
 * default plans in settings, the instalment charges in the payments CSV, the plans' money in the funnel and each
 * instalment's history on the link page. Instalments reach paid or failed here by their own columns and audit rows,
 * as the scheduler leaves them (its own tests charge through the sandbox gateway).
 */
let t: Awaited<ReturnType<typeof createTestApp>>;
let admin: Record<string, string>;
let coordinator: Record<string, string>;
const TZ = 'America/Chicago';
const today = () => isoDateInZone(new Date(), TZ);

beforeAll(async () => {
  t = await createTestApp({ PRACTICE_TIME_ZONE: TZ, LOG_LEVEL: 'error' });
  admin = { authorization: `Bearer ${await staffToken(t.ctx.db, { email: 'admin@example.com', role: 'admin' })}` };
  coordinator = {
    authorization: `Bearer ${await staffToken(t.ctx.db, { email: 'coord@example.com', role: 'coordinator' })}`,
  };
});
afterAll(async () => t?.close());

const templates = (method: 'GET' | 'PUT', headers: Record<string, string>, payload?: object) =>
  t.app.inject({ method, url: '/api/admin/settings/plans', headers, ...(payload ? { payload } : {}) });

describe('the practice default plans (GET/PUT /api/admin/settings/plans)', () => {
  it("offers Paylink's two examples until an admin saves a list, which every role then reads", async () => {
    const first = await templates('GET', coordinator);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({
      source: 'default',
      updatedAt: null,
      templates: [
        { name: null, kind: 'single', daysBeforeSurgery: 21 },
        { name: null, kind: 'installments', count: 3, every: 'month', firstDueAfterDays: 30 },
      ],
    });
    const list = [
      { name: 'Balance 28 days before surgery', kind: 'single', daysBeforeSurgery: 28 },
      { name: '  6 fortnightly  ', kind: 'installments', count: 6, every: 'two_weeks', firstDueAfterDays: 14 },
      { name: '', kind: 'installments', count: 2, every: 'month', firstDueAfterDays: 1 },
    ];
    const saved = await templates('PUT', admin, { templates: list });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      source: 'practice',
      templates: [list[0], { ...list[1], name: '6 fortnightly' }, { ...list[2], name: null }],
    });
    expect((await templates('GET', coordinator)).json().templates).toHaveLength(3);
    const audit = await t.ctx.db.query<{ details: { templates: unknown[] } }>(
      `select details from audit_event where action = 'practice.plan_templates_changed'`,
    );
    expect(audit.rows[0]?.details.templates).toHaveLength(3);
  });

  it('refuses a list the plan rules refuse, naming the field; coordinators cannot change it', async () => {
    const bad = async (template: object, field: string) => {
      const r = await templates('PUT', admin, { templates: [template] });
      expect(r.statusCode, r.body).toBe(400);
      expect(Object.keys(r.json().fields ?? {}).join(' ')).toContain(field);
    };
    await bad({ name: 'x', kind: 'installments', count: 1, every: 'month', firstDueAfterDays: 5 }, 'count');
    await bad({ name: 'x', kind: 'installments', count: 25, every: 'month', firstDueAfterDays: 5 }, 'count');
    await bad({ name: 'x', kind: 'installments', count: 3, every: 'year', firstDueAfterDays: 5 }, 'every');
    await bad({ name: 'x', kind: 'single', daysBeforeSurgery: 0 }, 'daysBeforeSurgery');
    await bad({ name: 'x', kind: 'single', daysBeforeSurgery: 2.5 }, 'daysBeforeSurgery');
    await bad({ name: 'x', kind: 'weekly' }, 'kind');
    const twice = await templates('PUT', admin, {
      templates: [
        { name: 'Same', kind: 'single', daysBeforeSurgery: 10 },
        { name: 'same', kind: 'single', daysBeforeSurgery: 20 },
      ],
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.body).toContain('name is used twice');
    const tooMany = await templates('PUT', admin, {
      templates: Array.from({ length: 21 }, () => ({ name: null, kind: 'single', daysBeforeSurgery: 7 })),
    });
    expect(tooMany.statusCode).toBe(400);
    expect((await templates('PUT', coordinator, { templates: [] })).statusCode).toBe(403);
    // Nothing above changed the saved list.
    expect((await templates('GET', admin)).json().templates).toHaveLength(3);
  });
});

async function planLink(lastName: string, plan: object): Promise<string> {
  const r = await t.app.inject({
    method: 'POST',
    url: '/api/admin/links',
    headers: admin,
    payload: { firstName: 'Rosa', lastName, phone: '512-555-0199', plan },
  });
  expect(r.statusCode, r.body).toBe(201);
  return r.json().id as string;
}

/** A $500 total in 3 monthly instalments after a $200 deposit: $100, $100, $100. */
async function threeInstalments(lastName: string) {
  const id = await planLink(lastName, {
    total: 500,
    kind: 'installments',
    count: 3,
    every: 'month',
    firstDueOn: addDays(today(), 10),
  });
  await t.ctx.db.transaction((tx) => materialisePlan({ tx, actor: SYSTEM_ACTOR, linkId: id, paidCents: 20_000 }));
  await t.ctx.db.query(
    `insert into stored_card (link_id, token_sealed, brand, last4, exp_month, exp_year)
     values ($1, 'v2.x.x.x.x', 'visa', '4242', 12, 2030)`,
    [id],
  );
  return id;
}

/** Instalment 1 paid on the second try (its notice first), 2 failed after its last retry, 3 still scheduled. */
async function chargeHistory(id: string) {
  const audit = (action: string, details: Record<string, unknown>) =>
    writeAudit(t.ctx.db, { ...SYSTEM_ACTOR, action, linkId: id, details });
  await audit('installment.notified', { n: 1, amountCents: 10_000, dueOn: '2027-01-15', messageId: '1' });
  await audit('installment.declined', {
    n: 1,
    amountCents: 10_000,
    attempts: 1,
    reason: 'INSUFFICIENT FUNDS',
    nextAttemptAt: '2027-01-16T15:00:00.000Z',
    final: false,
  });
  await audit('installment.paid', { n: 1, amountCents: 10_000, txnId: 'TXN-PLAN-1', attempts: 2 });
  await audit('installment.failed', { n: 2, amountCents: 10_000, attempts: 4, reason: 'DECLINED', final: true });
  await t.ctx.db.query(
    `update plan_installment set status = 'paid', attempts = 2, paid_at = now(), gateway_txn_id = 'TXN-PLAN-1'
     where n = 1 and plan_id = (select id from payment_plan where link_id = $1)`,
    [id],
  );
  await t.ctx.db.query(
    `update plan_installment set status = 'failed', attempts = 4, last_failure = 'DECLINED'
     where n = 2 and plan_id = (select id from payment_plan where link_id = $1)`,
    [id],
  );
}

describe('plans in the payments CSV, the funnel and the link page', () => {
  it('exports each instalment charge the gateway saw as its own row, with the plan columns', async () => {
    const id = await threeInstalments('Csv');
    await chargeHistory(id);
    await t.ctx.db.query(
      `insert into payment (link_id, payment_type_id, payment_source_id, amount_cents, status, transaction_id,
         card_brand, card_last4, paid_at) values ($1, 1, 1, 20000, 'approved', 'TXN-DEPOSIT', 'visa', '4242', now())`,
      [id],
    );
    const csv = await t.app.inject({ url: '/api/admin/payments/export', headers: coordinator });
    expect(csv.statusCode, csv.body).toBe(200);
    const lines = csv.body.split('\r\n');
    const header = lines[0]!.split(',');
    expect(header.slice(-8, -2)).toEqual([
      'installment',
      'due_on',
      'installment_status',
      'refunded_usd',
      'plan_total_usd',
      'plan_balance_usd',
    ]);
    const mine = lines.filter((l) => l.startsWith(`${id},`)).map((l) => l.split(','));
    // The deposit and two instalment charges; the scheduled third instalment is not a payment (Upcoming charges).
    expect(mine).toHaveLength(3);
    const col = (row: string[], name: string) => row[header.indexOf(name)];
    const deposit = mine.find((r) => col(r, 'payment_type') === 'deposit')!;
    expect(col(deposit, 'transaction_id')).toBe('TXN-DEPOSIT');
    expect(col(deposit, 'installment')).toBe('');
    expect(col(deposit, 'plan_total_usd')).toBe('500.00');
    expect(col(deposit, 'plan_balance_usd')).toBe('300.00');
    const paid = mine.find((r) => col(r, 'installment') === '1/3')!;
    expect(col(paid, 'status')).toBe('approved');
    expect(col(paid, 'payment_type')).toBe('installment');
    expect(col(paid, 'amount_usd')).toBe('100.00');
    expect(col(paid, 'transaction_id')).toBe('TXN-PLAN-1');
    expect(col(paid, 'failed_attempts')).toBe('1');
    expect(col(paid, 'card_last4')).toBe('4242');
    expect(col(paid, 'installment_status')).toBe('paid');
    expect(col(paid, 'plan_total_usd')).toBe('500.00');
    expect(col(paid, 'plan_balance_usd')).toBe('300.00');
    expect(col(paid, 'due_on')).toBe(addDays(today(), 10));
    const failed = mine.find((r) => col(r, 'installment') === '2/3')!;
    expect(col(failed, 'status')).toBe('failed');
    expect(col(failed, 'installment_status')).toBe('failed');
    expect(col(failed, 'failed_attempts')).toBe('4');

    // status=approved keeps the paid one, status=attempted the failed one; a search by transaction id finds it.
    const approved = await t.app.inject({ url: '/api/admin/payments/export?status=approved', headers: admin });
    expect(approved.body.split('\r\n').filter((l) => l.startsWith(`${id},`))).toHaveLength(2);
    const attempted = await t.app.inject({ url: '/api/admin/payments/export?status=attempted', headers: admin });
    expect(attempted.body).toContain(`${id},Rosa,Csv,failed,100.00,installment`);
    const byTxn = await t.app.inject({ url: '/api/admin/payments/export?q=TXN-PLAN-1', headers: admin });
    expect(byTxn.body.split('\r\n').filter((l) => l.startsWith(`${id},`))).toHaveLength(1);
    const audit = await t.ctx.db.query<{ details: { installments: number; linkIds: string[] } }>(
      `select details from audit_event where action = 'admin.payments_exported' order by id limit 1`,
    );
    expect(audit.rows[0]?.details.installments).toBe(2);
    expect(audit.rows[0]?.details.linkIds).toContain(id);
  });

  it("totals the plans' money in the funnel: collected, scheduled, failed", async () => {
    const before = (await t.app.inject({ url: '/api/admin/funnel', headers: admin })).json().planMoney;
    const id = await threeInstalments('Funnel');
    await chargeHistory(id);
    // A pending plan (no deposit yet) has no instalments stored: it counts as a plan, not as money.
    await planLink('Pending', { total: 900, kind: 'single', dueOn: addDays(today(), 40) });
    const r = await t.app.inject({ url: '/api/admin/funnel', headers: admin });
    expect(r.statusCode, r.body).toBe(200);
    const after = r.json().planMoney;
    expect(after.plans - before.plans).toBe(2);
    expect(after.collected.count - before.collected.count).toBe(1);
    expect(after.collected.amount - before.collected.amount).toBeCloseTo(100, 2);
    expect(after.scheduled.count - before.scheduled.count).toBe(1);
    expect(after.scheduled.amount - before.scheduled.amount).toBeCloseTo(100, 2);
    expect(after.failed.count - before.failed.count).toBe(1);
    expect(after.failed.amount - before.failed.amount).toBeCloseTo(100, 2);

    // A refund takes its part off what was collected.
    await t.ctx.db.query(
      `update plan_installment set refunded_cents = 2500
       where n = 1 and plan_id = (select id from payment_plan where link_id = $1)`,
      [id],
    );
    const refunded = (await t.app.inject({ url: '/api/admin/funnel', headers: admin })).json().planMoney;
    expect(refunded.collected.amount - before.collected.amount).toBeCloseTo(75, 2);
    // A cancelled plan's open instalments are no longer scheduled money.
    await t.ctx.db.query(`update payment_plan set status = 'cancelled', cancelled_at = now() where link_id = $1`, [id]);
    const cancelled = (await t.app.inject({ url: '/api/admin/funnel', headers: admin })).json().planMoney;
    expect(cancelled.scheduled.count - before.scheduled.count).toBe(0);
  });

  it("shows each instalment's history on the link page, oldest first", async () => {
    const id = await threeInstalments('History');
    await chargeHistory(id);
    const r = await t.app.inject({ url: `/api/admin/links/${id}/detail`, headers: coordinator });
    expect(r.statusCode, r.body).toBe(200);
    const history = r.json().planHistory as { n: number; action: string }[];
    expect(history.map((h) => [h.n, h.action])).toEqual([
      [1, 'installment.notified'],
      [1, 'installment.declined'],
      [1, 'installment.paid'],
      [2, 'installment.failed'],
    ]);
    expect(history[1]).toMatchObject({
      amount: 100,
      reason: 'INSUFFICIENT FUNDS',
      attempts: 1,
      nextAttemptAt: '2027-01-16T15:00:00.000Z',
      by: null,
    });
    expect(history[2]).toMatchObject({ transactionId: 'TXN-PLAN-1' });
    expect(history[0]).toMatchObject({ dueOn: '2027-01-15' });
    // A link without a plan has no history.
    const plain = await t.app.inject({
      method: 'POST',
      url: '/api/admin/links',
      headers: admin,
      payload: { firstName: 'No', lastName: 'Plan', phone: '512-555-0100' },
    });
    const none = await t.app.inject({ url: `/api/admin/links/${plain.json().id}/detail`, headers: admin });
    expect(none.json().planHistory).toEqual([]);
  });
});
