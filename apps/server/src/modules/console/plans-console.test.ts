import { addDays, isoDateInZone } from '@paylink/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '../../lib/audit.js';
import { staffToken } from '../../seed/seed-staff.js';
import { createTestApp } from '../../../test/support/context.js';
import { cardExpiresBefore, materialisePlan, sealCardToken } from '../plans/index.js';

/**
 * The console's view of payment plans (issue 28): the plan on the link page and the upcoming charges, against the
 * real database, with plans created through the admin API and materialised by the plans module as a deposit does.
 */
let t: Awaited<ReturnType<typeof createTestApp>>;
let admin: Record<string, string>;
let billing: Record<string, string>;
const TZ = 'America/Chicago';
const today = () => isoDateInZone(new Date(), TZ);

beforeAll(async () => {
  t = await createTestApp({ PRACTICE_TIME_ZONE: TZ, LOG_LEVEL: 'error' });
  admin = { authorization: `Bearer ${await staffToken(t.ctx.db, { email: 'admin@example.com', role: 'admin' })}` };
  billing = {
    authorization: `Bearer ${await staffToken(t.ctx.db, { email: 'billing@example.com', role: 'billing' })}`,
  };
});
afterAll(async () => t?.close());

async function planLink(lastName: string, plan: object): Promise<string> {
  const r = await t.app.inject({
    method: 'POST',
    url: '/api/admin/links',
    headers: admin,
    payload: { firstName: 'Ana', lastName, phone: '512-555-0147', plan },
  });
  expect(r.statusCode, r.body).toBe(201);
  return r.json().id as string;
}

/** The $200 deposit approved: the instalments stored and a card kept (expiring at the end of exp month/year). */
async function payDeposit(linkId: string, card: { last4: string; expMonth: number; expYear: number }) {
  await t.ctx.db.transaction((tx) => materialisePlan({ tx, actor: SYSTEM_ACTOR, linkId, paidCents: 20_000 }));
  await t.ctx.db.query(
    `insert into stored_card (link_id, token_sealed, brand, last4, exp_month, exp_year) values ($1, $2, 'visa', $3, $4, $5)`,
    [
      linkId,
      await sealCardToken({ ...t.ctx, q: t.ctx.db }, `tok${card.last4}`),
      card.last4,
      card.expMonth,
      card.expYear,
    ],
  );
}

const detail = (id: string, headers = admin) =>
  t.app.inject({ method: 'GET', url: `/api/admin/links/${id}/detail`, headers });
const upcoming = (query = '', headers = billing) =>
  t.app.inject({ method: 'GET', url: `/api/admin/plans/upcoming${query}`, headers });

describe('cardExpiresBefore', () => {
  it('keeps a card good through the last day of its expiry month', () => {
    expect(cardExpiresBefore({ month: 3, year: 2027 }, '2027-03-31')).toBe(false);
    expect(cardExpiresBefore({ month: 3, year: 2027 }, '2027-04-01')).toBe(true);
    expect(cardExpiresBefore({ month: 12, year: 2026 }, '2027-01-15')).toBe(true);
    expect(cardExpiresBefore({ month: null, year: null }, '2027-01-15')).toBe(false);
  });
});

describe('the plan on the console link page', () => {
  it('projects the instalments before the deposit and shows the stored ones and the card after it', async () => {
    const first = addDays(today(), 10);
    const id = await planLink('Projected', {
      total: 500,
      kind: 'installments',
      count: 3,
      every: 'month',
      firstDueOn: first,
    });
    const before = await detail(id);
    expect(before.statusCode, before.body).toBe(200);
    expect(before.json().plan).toMatchObject({
      kind: 'installments',
      status: 'pending',
      total: 500,
      balance: 500,
      deposit: null,
      projected: true,
      card: null,
    });
    expect(before.json().plan.installments).toHaveLength(3);
    expect(before.json().plan.installments[0]).toEqual({ n: 1, dueOn: first, amount: 166.66, status: 'scheduled' });

    await payDeposit(id, { last4: '4242', expMonth: 12, expYear: 2099 });
    const after = (await detail(id)).json().plan;
    expect(after).toMatchObject({ status: 'active', total: 500, deposit: 200, balance: 300, projected: false });
    expect(after.card).toEqual({ brand: 'visa', last4: '4242', expMonth: 12, expYear: 2099 });
    expect(after.installments.map((i: { amount: number }) => i.amount)).toEqual([100, 100, 100]);
  });

  it('answers null for a link without a plan', async () => {
    const r = await t.app.inject({
      method: 'POST',
      url: '/api/admin/links',
      headers: admin,
      payload: { firstName: 'Ana', lastName: 'Plain', phone: '512-555-0147' },
    });
    expect((await detail(r.json().id)).json().plan).toBeNull();
  });
});

describe('GET /api/admin/plans/upcoming', () => {
  it('lists the open instalments due in the window with the card, its expiry and the last decline', async () => {
    const soonDue = addDays(today(), 5);
    const soon = await planLink('Soon', { total: 500, kind: 'single', dueOn: soonDue });
    await payDeposit(soon, { last4: '1111', expMonth: 1, expYear: 2020 });
    await t.ctx.db.query(
      `update plan_installment set last_failure = 'INSUFFICIENT FUNDS', attempts = 1
        where plan_id = (select id from payment_plan where link_id = $1)`,
      [soon],
    );
    const late = await planLink('Late', { total: 500, kind: 'single', dueOn: addDays(today(), 60) });
    await payDeposit(late, { last4: '2222', expMonth: 12, expYear: 2099 });
    // Before the deposit a plan has no stored instalments: nothing to charge yet.
    const pending = await planLink('Pending', { total: 500, kind: 'single', dueOn: addDays(today(), 3) });
    // Declined on every try 10 days ago: failed, it stays on the list until staff act (issue 41).
    const failed = await planLink('Failed', { total: 500, kind: 'single', dueOn: addDays(today(), 2) });
    await payDeposit(failed, { last4: '3333', expMonth: 12, expYear: 2099 });
    await t.ctx.db.query(
      `update plan_installment set status = 'failed', attempts = 4, last_failure = 'DECLINED: NSF',
              due_on = $2::date where plan_id = (select id from payment_plan where link_id = $1)`,
      [failed, addDays(today(), -10)],
    );

    const r = await upcoming();
    expect(r.statusCode, r.body).toBe(200);
    const body = r.json();
    expect(body.from).toBe(today());
    expect(body.to).toBe(addDays(today(), 30));
    const ids = body.charges.map((c: { linkId: string }) => c.linkId);
    expect(ids).toContain(soon);
    expect(ids).not.toContain(late);
    expect(ids).not.toContain(pending);
    expect(body.charges.find((c: { linkId: string }) => c.linkId === failed)).toMatchObject({
      status: 'failed',
      dueOn: addDays(today(), -10),
      lastFailure: 'DECLINED: NSF',
      attempts: 4,
      nextAttemptAt: null,
    });
    expect(body.charges.find((c: { linkId: string }) => c.linkId === soon)).toEqual({
      linkId: soon,
      firstName: 'Ana',
      lastName: 'Soon',
      n: 1,
      count: 1,
      dueOn: soonDue,
      amount: 300,
      status: 'scheduled',
      cardBrand: 'visa',
      cardLast4: '1111',
      cardExpiresBeforeDue: true,
      lastFailure: 'INSUFFICIENT FUNDS',
      attempts: 1,
      nextAttemptAt: null,
    });

    const wide = (await upcoming('?days=90')).json();
    const lateRow = wide.charges.find((c: { linkId: string }) => c.linkId === late);
    expect(lateRow).toMatchObject({ amount: 300, cardLast4: '2222', cardExpiresBeforeDue: false });

    const audit = await t.ctx.db.query<{ details: { days: number; linkIds: string[] } }>(
      `select details from audit_event where action = 'admin.plans_upcoming_listed' order by id`,
    );
    expect(audit.rows.map((a) => a.details.days)).toEqual([30, 90]);
    expect(audit.rows[0]!.details.linkIds).toContain(soon);
  });

  it('takes 1 to 90 days and every staff role', async () => {
    expect((await upcoming('?days=91')).statusCode).toBe(400);
    expect((await upcoming('?days=0')).statusCode).toBe(400);
    expect((await upcoming('', admin)).statusCode).toBe(200);
    expect((await upcoming('', {})).statusCode).toBe(401);
  });
});
