import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '../../lib/audit.js';
import { newLinkId } from '../../lib/ids.js';
import { settleSandboxBatch } from '../../providers/gateway/sandbox.js';
import { staffToken } from '../../seed/seed-staff.js';
import { payWithSandbox, startPaymentTestEnv, type PaymentTestEnv } from '../../../test/support/payment-fixtures.js';
import { materialisePlan, resumePlan, runPlanScheduler, sealCardToken } from './index.js';

/**
 * The practice's actions on a plan (decision 0210) against the real database and the sandbox gateway: pause, resume,
 * reschedule, charge now, cancel the rest (and its race with a charge), refund a paid instalment, the webhooks. Each
 * test works in its own months of 2097, so a moved-clock pass never picks up another test's instalments.
 */
let env: PaymentTestEnv;
const staff: Record<string, Record<string, string>> = {};
beforeAll(async () => {
  env = await startPaymentTestEnv({
    PUBLIC_URL: 'https://pay.example.com',
    PRACTICE_TIME_ZONE: 'America/Chicago',
    REMINDER_QUIET_HOURS: '21-8',
  });
  for (const role of ['admin', 'coordinator', 'billing'] as const) {
    const token = await staffToken(env.ctx.db, { email: `plan-actions-${role}@example.com`, role });
    staff[role] = { authorization: `Bearer ${token}` };
  }
  // A webhook endpoint that wants the plan events, so they are recorded.
  const hook = await env.app.inject({
    method: 'POST',
    url: '/api/admin/webhooks',
    headers: staff.admin,
    payload: {
      url: 'https://hooks.example.com/paylink',
      events: ['plan.created', 'installment.notified', 'plan.cancelled', 'payment.refunded'],
    },
  });
  expect(hook.statusCode, hook.body).toBe(201);
});
afterAll(async () => {
  await fault({ mode: 'none' });
  await env?.close();
});

const db = () => env.ctx.db;
const fault = (body: object) =>
  fetch(`${env.gatewayOrigin}/sandbox/sale-faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const run = (now: string) =>
  runPlanScheduler({
    db: db(),
    gateway: env.ctx.providers.gateway,
    config: env.ctx.config,
    now: new Date(now),
    log: env.ctx.log,
  });
const act = (role: string, linkId: string, path: string, payload: object = {}) =>
  env.app.inject({ method: 'POST', url: `/api/admin/links/${linkId}/plan/${path}`, headers: staff[role], payload });

const tokens = new Map<string, string>();
/** A deposit that stores the card at the sandbox: its token (one per card for the whole file). */
async function storedToken(card = '4000000000000002'): Promise<string> {
  const known = tokens.get(card);
  if (known) return known;
  const gateway = env.ctx.providers.gateway;
  const merchantTxnId = newLinkId().replace(/[-_]/g, 'x');
  const sessionToken = await gateway.createSessionToken({
    amountCents: 20000,
    merchantTxnId,
    firstName: 'Ana',
    lastName: 'Garcia',
    storeCard: true,
  });
  const { pay } = await payWithSandbox(env.gatewayOrigin, { sessionToken, card, amountCents: 20000 });
  const token = (await gateway.queryTransaction(pay!.ssl_txn_id!))!.cardToken!;
  tokens.set(card, token);
  return token;
}

/** A link whose $200 deposit is recorded and card stored; the plan's balance is $300 (one charge or 3 monthly). */
async function planLink(plan: object, extra: Record<string, unknown> = {}, card?: string) {
  const r = await env.app.inject({
    method: 'POST',
    url: '/api/admin/links',
    headers: staff.admin,
    payload: { firstName: 'Ana', lastName: 'Diaz', phone: '512-555-0147', ...extra, plan: { total: 500, ...plan } },
  });
  expect(r.statusCode, r.body).toBe(201);
  const linkId = r.json().id as string;
  // The deposit's payment row, as an approved deposit leaves it (the refund's receipt goes where its receipt went).
  await db().query(
    `insert into payment (link_id, payment_type_id, payment_source_id, amount_cents, status, transaction_id, paid_at,
                          card_brand, card_last4)
     values ($1, 1, 1, 20000, 'approved', $2, now(), 'visa', '0002')`,
    [linkId, `dep${linkId.replace(/[-_]/g, '')}`.slice(0, 30)],
  );
  await db().transaction((tx) => materialisePlan({ tx, actor: SYSTEM_ACTOR, linkId, paidCents: 20_000 }));
  const sealed = await sealCardToken({ ...env.ctx, q: env.ctx.db }, await storedToken(card));
  await db().query(`insert into stored_card (link_id, token_sealed, brand, last4) values ($1, $2, 'visa', '0002')`, [
    linkId,
    sealed,
  ]);
  return linkId;
}
const single = (dueOn: string) => planLink({ kind: 'single', dueOn });

async function installments(linkId: string) {
  const r = await db().query<{
    n: number;
    status: string;
    due_on: string;
    attempts: number;
    merchant_txn_id: string;
    gateway_txn_id: string | null;
    last_failure: string | null;
    claimed_by: string | null;
    refunded_cents: string;
  }>(
    `select i.n, i.status, to_char(i.due_on, 'YYYY-MM-DD') as due_on, i.attempts, i.merchant_txn_id, i.gateway_txn_id,
            i.last_failure, i.claimed_by, i.refunded_cents::text
       from plan_installment i join payment_plan p on p.id = i.plan_id where p.link_id = $1 order by i.n`,
    [linkId],
  );
  return r.rows;
}
const first = async (linkId: string) => (await installments(linkId))[0]!;
const planStatus = async (linkId: string) =>
  (await db().query<{ status: string }>(`select status from payment_plan where link_id = $1`, [linkId])).rows[0]!
    .status;
async function messages(linkId: string, kind: string) {
  const r = await db().query<{ channel: string; body_text: string; subject: string | null }>(
    `select channel, body_text, subject from outbox_message where link_id = $1 and kind = $2 order by id`,
    [linkId, kind],
  );
  return r.rows;
}
const audits = async (linkId: string, action: string) =>
  (
    await db().query<{ actor_type: string; details: Record<string, unknown> }>(
      `select actor_type, details from audit_event where link_id = $1 and action = $2 order by id`,
      [linkId, action],
    )
  ).rows;
const events = async (linkId: string, type: string) =>
  (
    await db().query<{ body: string }>(
      `select body from webhook_event where link_id = $1 and type = $2 order by created_at`,
      [linkId, type],
    )
  ).rows.map((r) => JSON.parse(r.body).data);
const approvedAtGateway = async (merchantTxnId: string) =>
  (await env.ctx.providers.gateway.findByMerchantTxnId(merchantTxnId, new Date(Date.now() - 86_400_000))).filter(
    (t) => t.approved,
  );
const endPlans = (...linkIds: string[]) =>
  db().query(`update payment_plan set status = 'cancelled' where link_id = any($1)`, [linkIds]);

describe('pause and resume', () => {
  it('a paused plan is neither notified nor charged; on resume a passed due date gets a new notice, then 7 days', async () => {
    const linkId = await single('2097-01-20');
    const paused = await act('coordinator', linkId, 'pause', { reason: 'patient asked' });
    expect(paused.statusCode, paused.body).toBe(200);
    expect(paused.json().plan.status).toBe('paused');
    expect(await audits(linkId, 'plan.paused')).toMatchObject([
      { actor_type: 'staff', details: { reason: 'patient asked' } },
    ]);
    // The notice day and the due date pass while paused: nothing is sent, nothing charged.
    expect((await run('2097-01-13T15:00:00Z')).notified).toBe(0);
    expect((await run('2097-01-20T15:00:00Z')).paid).toBe(0);
    expect(await first(linkId)).toMatchObject({ status: 'scheduled', attempts: 0 });
    // Pausing twice is refused with the reason.
    const again = await act('billing', linkId, 'pause');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: 'plan_not_active' });

    await resumePlan({
      db: db(),
      config: env.ctx.config,
      actor: SYSTEM_ACTOR,
      linkId,
      now: new Date('2097-01-25T15:00:00Z'),
    });
    expect(await planStatus(linkId)).toBe('active');
    // The due date passed: the next pass tells the patient and moves the charge 7 days after the notice.
    expect((await run('2097-01-25T15:00:00Z')).notified).toBe(1);
    expect(await first(linkId)).toMatchObject({ status: 'notified', due_on: '2097-02-01' });
    expect((await messages(linkId, 'plan-notice'))[0]!.body_text).toContain('February 1, 2097');
    expect((await run('2097-01-31T15:00:00Z')).paid).toBe(0);
    expect((await run('2097-02-01T15:00:00Z')).paid).toBe(1);
  });

  it('a notified instalment whose date passed while paused is told again before any charge', async () => {
    const linkId = await single('2097-03-10');
    expect((await run('2097-03-03T15:00:00Z')).notified).toBe(1);
    expect((await act('admin', linkId, 'pause')).statusCode).toBe(200);
    expect((await run('2097-03-10T15:00:00Z')).paid).toBe(0);
    await resumePlan({
      db: db(),
      config: env.ctx.config,
      actor: SYSTEM_ACTOR,
      linkId,
      now: new Date('2097-03-15T15:00:00Z'),
    });
    expect(await first(linkId)).toMatchObject({ status: 'scheduled' });
    expect(await audits(linkId, 'plan.resumed')).toMatchObject([{ details: { renotice: [1] } }]);
    expect((await run('2097-03-15T15:00:00Z')).notified).toBe(1);
    expect((await first(linkId)).due_on).toBe('2097-03-22');
    expect(await messages(linkId, 'plan-notice')).toHaveLength(2);
    await endPlans(linkId);
  });

  it('resume answers 409 on a plan that is not paused, 404 on a link without a plan', async () => {
    const linkId = await single('2097-04-10');
    const r = await act('admin', linkId, 'resume');
    expect(r.statusCode).toBe(409);
    expect(r.json().message).toContain('only a paused plan');
    const noPlan = await env.app.inject({
      method: 'POST',
      url: '/api/admin/links',
      headers: staff.admin,
      payload: { firstName: 'Bo', lastName: 'Lee', phone: '512-555-0148' },
    });
    const r404 = await act('admin', noPlan.json().id, 'pause');
    expect(r404.statusCode).toBe(404);
    await endPlans(linkId);
  });
});

describe('reschedule', () => {
  it('moves an instalment at least 7 days away; sooner or a paid one is refused', async () => {
    const linkId = await planLink({ kind: 'installments', count: 3, every: 'month', firstDueOn: '2097-05-10' });
    const soon = await act('coordinator', linkId, 'installments/1/reschedule', { dueOn: '2026-01-01' });
    expect(soon.statusCode).toBe(400);
    expect(soon.json().fields.dueOn).toContain('7 days before each charge');
    const bad = await act('coordinator', linkId, 'installments/1/reschedule', { dueOn: '2097-02-30' });
    expect(bad.statusCode).toBe(400);
    const missing = await act('coordinator', linkId, 'installments/9/reschedule', { dueOn: '2097-06-01' });
    expect(missing.statusCode).toBe(404);

    expect((await run('2097-05-03T15:00:00Z')).notified).toBe(1);
    const moved = await act('coordinator', linkId, 'installments/1/reschedule', { dueOn: '2097-05-25' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().plan.installments[0]).toMatchObject({ n: 1, dueOn: '2097-05-25', status: 'scheduled' });
    expect(await audits(linkId, 'installment.rescheduled')).toMatchObject([
      { details: { n: 1, from: '2097-05-10', to: '2097-05-25', previousStatus: 'notified' } },
    ]);
    // The old date charges nothing; the new one gets its own notice 7 days before.
    expect((await run('2097-05-10T15:00:00Z')).paid).toBe(0);
    expect((await run('2097-05-18T15:00:00Z')).notified).toBe(1);
    expect((await messages(linkId, 'plan-notice')).map((m) => m.body_text).join('\n')).toContain('May 25, 2097');
    expect((await run('2097-05-25T15:00:00Z')).paid).toBe(1);
    const paid = await act('coordinator', linkId, 'installments/1/reschedule', { dueOn: '2097-07-01' });
    expect(paid.statusCode).toBe(409);
    expect(paid.json()).toMatchObject({ error: 'installment_not_open' });
    await endPlans(linkId);
  });
});

describe('charge now', () => {
  it('charges one instalment once through the scheduler path; billing and admin only', async () => {
    const linkId = await planLink({ kind: 'installments', count: 2, every: 'month', firstDueOn: '2097-08-10' });
    const coordinator = await act('coordinator', linkId, 'installments/2/charge');
    expect(coordinator.statusCode).toBe(403);
    const before = (await installments(linkId))[1]!;
    const r = await act('billing', linkId, 'installments/2/charge', { reason: 'patient called to pay today' });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().outcome).toBe('paid');
    expect(r.json().plan.installments.map((i: { status: string }) => i.status)).toEqual(['scheduled', 'paid']);
    const after = (await installments(linkId))[1]!;
    expect(after).toMatchObject({ status: 'paid', merchant_txn_id: before.merchant_txn_id, claimed_by: null });
    expect(await approvedAtGateway(after.merchant_txn_id)).toHaveLength(1);
    expect(await audits(linkId, 'installment.charge_requested')).toMatchObject([
      { actor_type: 'staff', details: { n: 2 } },
    ]);
    expect(await audits(linkId, 'installment.paid')).toHaveLength(1);
    expect(await messages(linkId, 'plan-receipt')).toHaveLength(1);
    // Paid once: a second request is refused, and the scheduler never charges it again.
    const twice = await act('billing', linkId, 'installments/2/charge');
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({ error: 'installment_not_open' });
    // A paused plan is resumed first.
    expect((await act('billing', linkId, 'pause')).statusCode).toBe(200);
    const paused = await act('billing', linkId, 'installments/1/charge');
    expect(paused.statusCode).toBe(409);
    expect(paused.json().message).toContain('resume it first');
    await endPlans(linkId);
  });

  it('a declined charge now is an answer, told to the patient, and retried from today by the retry policy', async () => {
    const linkId = await planLink({ kind: 'single', dueOn: '2097-09-20' }, {}, '4000000000000341');
    const r = await act('admin', linkId, 'installments/1/charge');
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().outcome).toBe('declined');
    const today = new Date().toISOString().slice(0, 10);
    const row = await first(linkId);
    expect(row).toMatchObject({ status: 'notified', attempts: 1, last_failure: 'DECLINED: NSF', claimed_by: null });
    // Due today now (the patient asked to pay today), so the next try is a day later, not weeks.
    expect(row.due_on <= today).toBe(true);
    expect(await messages(linkId, 'plan-declined')).toHaveLength(1);
    const tomorrow = new Date(Date.now() + 86_400_000 + 60_000).toISOString();
    expect((await run(tomorrow)).declined).toBeGreaterThanOrEqual(1);
    expect(await first(linkId)).toMatchObject({ attempts: 2 });
    await endPlans(linkId);
  });

  it('refuses while a scheduler pass holds the instalment', async () => {
    const linkId = await single('2097-09-10');
    await db().query(
      `update plan_installment set claimed_by = 'other-pass', claim_expires_at = now() + interval '5 minutes'
        where plan_id = (select id from payment_plan where link_id = $1)`,
      [linkId],
    );
    const r = await act('admin', linkId, 'installments/1/charge');
    expect(r.statusCode).toBe(409);
    expect(r.json()).toMatchObject({ error: 'charge_in_progress' });
    expect((await first(linkId)).attempts).toBe(0);
    await endPlans(linkId);
  });
});

describe('cancel the rest', () => {
  it('cancels the open instalments, confirms to the patient at once in their language, emits plan.cancelled', async () => {
    const linkId = await planLink(
      { kind: 'installments', count: 3, every: 'month', firstDueOn: '2097-10-10' },
      { language: 'es' },
    );
    expect((await act('billing', linkId, 'installments/1/charge')).json().outcome).toBe('paid');
    const r = await act('coordinator', linkId, 'cancel', { reason: 'surgery cancelled' });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().plan.status).toBe('cancelled');
    expect(r.json().plan.installments.map((i: { status: string }) => i.status)).toEqual([
      'paid',
      'cancelled',
      'cancelled',
    ]);
    const sent = await messages(linkId, 'plan-cancelled');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.channel).toBe('sms');
    expect(sent[0]!.body_text).toContain('su plan de pagos fue cancelado');
    expect(sent[0]!.body_text).toContain('los 2 pagos pendientes ($200.00 en total)');
    expect(sent[0]!.body_text).toContain('0002');
    expect(await audits(linkId, 'plan.cancelled')).toMatchObject([
      { actor_type: 'staff', details: { cancelled: [2, 3], cancelledCents: 20_000, reason: 'surgery cancelled' } },
    ]);
    expect(await events(linkId, 'plan.cancelled')).toMatchObject([{ linkId, cancelledCents: 20_000 }]);
    // Nothing more is charged, and a second cancel is told why not.
    await run('2097-12-10T15:00:00Z');
    expect((await installments(linkId)).map((i) => i.status)).toEqual(['paid', 'cancelled', 'cancelled']);
    const again = await act('coordinator', linkId, 'cancel');
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toContain('it was cancelled');
  });

  it('an English e-mail when the patient has no phone', async () => {
    const linkId = await planLink(
      { kind: 'single', dueOn: '2097-11-10' },
      { phone: undefined, email: 'ana@example.com' },
    );
    expect((await act('admin', linkId, 'cancel')).statusCode).toBe(200);
    const [mail] = await messages(linkId, 'plan-cancelled');
    expect(mail!.channel).toBe('email');
    expect(mail!.subject).toContain('is cancelled');
    expect(mail!.body_text).toContain('the remaining payment of $300.00 will not be charged');
  });

  it('race: a pass that claimed the instalment but has not sent the sale loses its claim and charges nothing', async () => {
    const linkId = await single('2097-12-10');
    expect((await run('2097-12-03T15:00:00Z')).notified).toBe(1);
    // A pass elsewhere has claimed it (its lease runs) and is about to charge.
    await db().query(
      `update plan_installment set claimed_by = 'other-pass', claim_expires_at = now() + interval '5 minutes'
        where plan_id = (select id from payment_plan where link_id = $1)`,
      [linkId],
    );
    const r = await act('coordinator', linkId, 'cancel');
    expect(r.statusCode, r.body).toBe(200);
    const row = await first(linkId);
    expect(row).toMatchObject({ status: 'cancelled', claimed_by: null });
    // That pass writes through its claim: the write that must come before the sale finds nothing.
    const write = await db().query(
      `update plan_installment set last_failure = 'outcome_unknown' where merchant_txn_id = $1 and claimed_by = 'other-pass'`,
      [row.merchant_txn_id],
    );
    expect(write.rowCount).toBe(0);
    expect((await run('2097-12-10T15:00:00Z')).paid).toBe(0);
    expect(await approvedAtGateway(row.merchant_txn_id)).toHaveLength(0);
  });

  it('race: a sale already sent makes the cancel too late (409), and the plan shows it paid, never cancelled', async () => {
    const linkId = await single('2096-01-10');
    expect((await run('2096-01-03T15:00:00Z')).notified).toBe(1);
    await fault({ mode: 'slow', delayMs: 1500, times: 1 });
    const pass = run('2096-01-10T15:00:00Z');
    // Wait until the sale is on its way (the id is marked before the call).
    for (let i = 0; i < 100 && (await first(linkId)).last_failure !== 'outcome_unknown'; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const r = await act('coordinator', linkId, 'cancel');
    expect(r.statusCode).toBe(409);
    expect(r.json()).toMatchObject({ error: 'charge_in_progress' });
    expect(r.json().message).toContain('Too late to cancel the plan');
    expect((await pass).paid).toBe(1);
    const row = await first(linkId);
    expect(row.status).toBe('paid');
    expect(await approvedAtGateway(row.merchant_txn_id)).toHaveLength(1);
    expect(await messages(linkId, 'plan-cancelled')).toHaveLength(0);
    expect((await act('coordinator', linkId, 'cancel')).json().message).toContain('everything in it is paid');
  });

  it('race: cancels and scheduler passes at once on 8 plans — each is either cancelled and uncharged, or paid', async () => {
    const links: string[] = [];
    for (let i = 0; i < 8; i++) links.push(await single('2096-02-10'));
    expect((await run('2096-02-03T15:00:00Z')).notified).toBe(8);
    const [, ...answers] = await Promise.all([
      run('2096-02-10T15:00:00Z'),
      ...links.map((linkId) => act('coordinator', linkId, 'cancel')),
    ]);
    await run('2096-02-10T15:10:00Z');
    for (const [i, linkId] of links.entries()) {
      const row = await first(linkId);
      const charged = await approvedAtGateway(row.merchant_txn_id);
      if (answers[i]!.statusCode === 200) {
        expect(row.status).toBe('cancelled');
        expect(charged).toHaveLength(0);
      } else {
        expect(answers[i]!.statusCode).toBe(409);
        expect(row.status).toBe('paid');
        expect(charged).toHaveLength(1);
      }
    }
  });
});

describe('the last instalments paid at once', () => {
  it('race: two instalments of one plan charged together complete the plan, on each of 16 plans', async () => {
    const links: string[] = [];
    for (let i = 0; i < 16; i++)
      links.push(await planLink({ kind: 'installments', count: 2, every: 'month', firstDueOn: '2095-03-10' }));
    const answers = await Promise.all(
      links.flatMap((linkId) => [
        act('billing', linkId, 'installments/1/charge'),
        act('billing', linkId, 'installments/2/charge'),
      ]),
    );
    for (const r of answers) expect(r.statusCode, r.body).toBe(200);
    for (const linkId of links) {
      expect((await installments(linkId)).map((i) => i.status)).toEqual(['paid', 'paid']);
      // Each payment saw the other one open while neither had committed: the plan must still end completed.
      expect(await planStatus(linkId)).toBe('completed');
      expect(await audits(linkId, 'plan.completed')).toHaveLength(1);
    }
  });
});

describe('refund a paid instalment', () => {
  it('voids in full before settlement, returns part after, and the instalment ends refunded', async () => {
    const linkId = await planLink({ kind: 'installments', count: 2, every: 'month', firstDueOn: '2096-03-10' });
    const refundOf = (n: number, payload: object, role = 'billing') =>
      act(role, linkId, `installments/${n}/refund`, { reason: 'overcharge', ...payload });
    expect((await refundOf(1, {})).json()).toMatchObject({ error: 'installment_not_paid' });
    expect((await act('billing', linkId, 'installments/1/charge')).json().outcome).toBe('paid');
    expect((await act('billing', linkId, 'installments/2/charge')).json().outcome).toBe('paid');
    expect((await refundOf(1, {}, 'coordinator')).statusCode).toBe(403);

    // Unsettled: only the whole instalment, as a void.
    const part = await refundOf(1, { amount: 50 });
    expect(part.statusCode).toBe(409);
    expect(part.json()).toMatchObject({ error: 'partial_refund_before_settlement' });
    const voided = await refundOf(1, {});
    expect(voided.statusCode, voided.body).toBe(201);
    expect(voided.json().plan.installments[0]).toMatchObject({ status: 'refunded', refunded: 150 });
    expect(await audits(linkId, 'installment.voided')).toHaveLength(1);
    expect((await refundOf(1, {})).json()).toMatchObject({ error: 'fully_refunded' });

    // Settled: a partial return, then the rest.
    const second = (await installments(linkId))[1]!;
    await settleSandboxBatch({ db: db(), origin: env.gatewayOrigin, txnId: second.gateway_txn_id! });
    const fifty = await refundOf(2, { amount: 50 });
    expect(fifty.statusCode, fifty.body).toBe(201);
    expect(fifty.json().plan.installments[1]).toMatchObject({ status: 'paid', refunded: 50 });
    expect((await refundOf(2, { amount: 150 })).json()).toMatchObject({ error: 'refund_exceeds_payment' });
    const rest = await refundOf(2, {});
    expect(rest.json().plan.installments[1]).toMatchObject({ status: 'refunded', refunded: 150 });
    expect(await messages(linkId, 'refund-receipt')).toHaveLength(3);
    // Each names the instalment it gave back in refund.installment too (it was null), as the console's refunds do.
    const refunded = await events(linkId, 'payment.refunded');
    expect(refunded.map((e) => [e.refund.kind, e.refund.amount, e.refund.installment])).toEqual([
      ['void', 150, { n: 1, count: 2 }],
      ['return', 50, { n: 2, count: 2 }],
      ['return', 100, { n: 2, count: 2 }],
    ]);
    // The deposit's own refund is untouched by the instalments' refunds.
    const deposit = await db().query<{ refunded_cents: number }>(
      `select refunded_cents from payment where link_id = $1`,
      [linkId],
    );
    expect(deposit.rows[0]!.refunded_cents).toBe(0);
  });
});

describe('webhooks', () => {
  it('plan.created with the link, installment.notified with the notice', async () => {
    const linkId = await single('2096-04-10');
    expect(await events(linkId, 'plan.created')).toMatchObject([{ linkId, totalCents: 50_000, kind: 'single' }]);
    await run('2096-04-03T15:00:00Z');
    expect(await events(linkId, 'installment.notified')).toMatchObject([
      { linkId, n: 1, amountCents: 30_000, dueOn: '2096-04-10' },
    ]);
    await endPlans(linkId);
  });
});
