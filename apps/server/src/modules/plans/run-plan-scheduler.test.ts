import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '../../lib/audit.js';
import { optIn, optOut } from '../../messages/opt-outs.js';
import { newLinkId } from '../../lib/ids.js';
import { convergeEndpoints, createConvergeGateway } from '../../providers/gateway/converge.js';
import { sandboxGatewayCredentials } from '../../providers/gateway/sandbox.js';
import { staffToken } from '../../seed/seed-staff.js';
import { payWithSandbox, startPaymentTestEnv, type PaymentTestEnv } from '../../../test/support/payment-fixtures.js';
import { materialisePlan, runPlanScheduler, sealCardToken } from './index.js';

/**
 * The plan scheduler against the real database and the real sandbox gateway: notices, charges, the 1/3/7-day retries,
 * the lease under concurrent passes and the reconciliation of an unknown outcome. Each test works in its own months of
 * 2098 and cancels its plans at the end, so a later pass never picks up an earlier test's instalments.
 */
let env: PaymentTestEnv;
let admin: Record<string, string>;
beforeAll(async () => {
  env = await startPaymentTestEnv({
    PUBLIC_URL: 'https://pay.example.com',
    PRACTICE_TIME_ZONE: 'America/Chicago',
    REMINDER_QUIET_HOURS: '21-8',
  });
  admin = {
    authorization: `Bearer ${await staffToken(env.ctx.db, { email: 'plans-admin@example.com', role: 'admin' })}`,
  };
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
const run = (now: string, gateway = env.ctx.providers.gateway) =>
  runPlanScheduler({ db: db(), gateway, config: env.ctx.config, now: new Date(now), log: env.ctx.log });

/** A deposit that stores the card at the sandbox, as the payment page's sale does: its token. */
async function storedToken(card: string): Promise<string> {
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
  expect(pay?.ssl_result).toBe('0');
  return (await gateway.queryTransaction(pay!.ssl_txn_id!))!.cardToken!;
}

/** A link with a single-charge plan, its $200 deposit paid (instalment: the $300 balance) and the card stored. */
async function planWithCard(token: string, dueOn: string, extra: Record<string, unknown> = {}) {
  const r = await env.app.inject({
    method: 'POST',
    url: '/api/admin/links',
    headers: admin,
    payload: {
      firstName: 'Ana',
      lastName: 'Diaz',
      phone: '512-555-0147',
      ...extra,
      plan: { total: 500, kind: 'single', dueOn },
    },
  });
  expect(r.statusCode, r.body).toBe(201);
  const linkId = r.json().id as string;
  await db().transaction((tx) => materialisePlan({ tx, actor: SYSTEM_ACTOR, linkId, paidCents: 20_000 }));
  await db().query(`insert into stored_card (link_id, token_sealed, brand, last4) values ($1, $2, 'visa', $3)`, [
    linkId,
    await sealCardToken({ ...env.ctx, q: env.ctx.db }, token),
    token.slice(-4),
  ]);
  return linkId;
}

async function installment(linkId: string) {
  const r = await db().query<{
    status: string;
    attempts: number;
    due_on: string;
    merchant_txn_id: string;
    gateway_txn_id: string | null;
    last_failure: string | null;
    next_attempt_at: Date | null;
    claimed_by: string | null;
    updated_at: Date;
  }>(
    `select i.status, i.attempts, to_char(i.due_on, 'YYYY-MM-DD') as due_on, i.merchant_txn_id, i.gateway_txn_id,
            i.last_failure, i.next_attempt_at, i.claimed_by, i.updated_at
       from plan_installment i join payment_plan p on p.id = i.plan_id where p.link_id = $1`,
    [linkId],
  );
  return r.rows[0]!;
}

async function messages(linkId: string, kind: string) {
  const r = await db().query<{ channel: string; body_text: string }>(
    `select channel, body_text from outbox_message where link_id = $1 and kind = $2 order by id`,
    [linkId, kind],
  );
  return r.rows;
}

const planStatus = async (linkId: string) =>
  (await db().query<{ status: string }>(`select status from payment_plan where link_id = $1`, [linkId])).rows[0]!
    .status;
const cancel = (...linkIds: string[]) =>
  db().query(`update payment_plan set status = 'cancelled' where link_id = any($1)`, [linkIds]);
const approvedAtGateway = async (merchantTxnId: string) =>
  (await env.ctx.providers.gateway.findByMerchantTxnId(merchantTxnId, new Date())).filter((t) => t.approved);

describe('runPlanScheduler', () => {
  it('sends the notice 7 days before (after quiet hours), then charges once on the due date', async () => {
    const linkId = await planWithCard(await storedToken('4000000000000002'), '2098-03-10');
    // 8 days before: nothing yet.
    expect((await run('2098-03-02T17:00:00Z')).notified).toBe(0);
    // 7 days before, 03:00 in Chicago: an SMS waits for the end of quiet hours.
    expect(await run('2098-03-03T09:00:00Z')).toMatchObject({ notified: 0, deferred: 1 });
    expect(await messages(linkId, 'plan-notice')).toHaveLength(0);
    // Held until 08:00 in Chicago (14:00 UTC): a pass in the quiet hours does not claim it again.
    expect((await installment(linkId)).next_attempt_at).toEqual(new Date('2098-03-03T14:00:00Z'));
    expect(await run('2098-03-03T11:00:00Z')).toMatchObject({ notified: 0, deferred: 0 });
    expect(await run('2098-03-03T15:00:00Z')).toMatchObject({ notified: 1 });
    const notice = await messages(linkId, 'plan-notice');
    expect(notice).toHaveLength(1);
    expect(notice[0]!.channel).toBe('sms');
    expect(notice[0]!.body_text).toContain('$300.00');
    expect(notice[0]!.body_text).toContain('March 10, 2098');
    expect(notice[0]!.body_text).toContain('ending in 0002');
    expect(notice[0]!.body_text).toContain(`https://pay.example.com/auth?id=${linkId}`);
    expect(await installment(linkId)).toMatchObject({ status: 'notified', due_on: '2098-03-10', claimed_by: null });
    expect((await run('2098-03-03T16:00:00Z')).notified).toBe(0);

    // The due date, but less than 7 days after the notice went out: not yet.
    expect((await run('2098-03-10T14:00:00Z')).paid).toBe(0);
    expect(await run('2098-03-10T15:00:00Z')).toMatchObject({ paid: 1, completedPlans: 1 });
    const paid = await installment(linkId);
    expect(paid).toMatchObject({ status: 'paid', attempts: 1, last_failure: null, claimed_by: null });
    expect(paid.gateway_txn_id).toBeTruthy();
    const approved = await approvedAtGateway(paid.merchant_txn_id);
    expect(approved.map((t) => [t.txnId, t.amountCents])).toEqual([[paid.gateway_txn_id, 30_000]]);
    expect(await planStatus(linkId)).toBe('completed');
    expect(await messages(linkId, 'plan-receipt')).toHaveLength(1);
    const audit = await db().query(
      `select details from audit_event where link_id = $1 and action = 'installment.paid'`,
      [linkId],
    );
    expect(audit.rows).toHaveLength(1);
    expect((await run('2098-03-11T15:00:00Z')).paid).toBe(0);
  });

  it('holds an SMS notice for the patient’s quiet hours: a Los Angeles area code, a Chicago practice (decision 0217)', async () => {
    const linkId = await planWithCard(await storedToken('4000000000000002'), '2098-05-10', {
      phone: '(310) 555-0149',
    });
    // 7 days before, 14:00 UTC: 09:00 at the practice in Chicago, 07:00 in Los Angeles: held.
    expect(await run('2098-05-03T14:00:00Z')).toMatchObject({ notified: 0, deferred: 1 });
    // Until 08:00 in Los Angeles (15:00 UTC).
    expect((await installment(linkId)).next_attempt_at).toEqual(new Date('2098-05-03T15:00:00Z'));
    expect(await run('2098-05-03T15:00:00Z')).toMatchObject({ notified: 1 });
    expect(await messages(linkId, 'plan-notice')).toHaveLength(1);
    await cancel(linkId);
  });

  it('moves the charge when the deposit leaves less than the notice period', async () => {
    const linkId = await planWithCard(await storedToken('4000000000000002'), '2098-04-05');
    // The first pass after materialising is 2 days before the due date: the charge moves to 7 days after the notice.
    expect((await run('2098-04-03T15:00:00Z')).notified).toBe(1);
    expect((await installment(linkId)).due_on).toBe('2098-04-10');
    expect((await messages(linkId, 'plan-notice'))[0]!.body_text).toContain('April 10, 2098');
    expect((await run('2098-04-05T15:00:00Z')).paid).toBe(0);
    expect((await run('2098-04-10T15:00:00Z')).paid).toBe(1);
  });

  it('20 concurrent passes charge 10 due instalments exactly once each', async () => {
    const token = await storedToken('4000000000000002');
    const links: string[] = [];
    for (let i = 0; i < 10; i++) links.push(await planWithCard(token, '2098-05-20'));
    expect((await run('2098-05-13T15:00:00Z')).notified).toBe(10);
    const reports = await Promise.all(Array.from({ length: 20 }, () => run('2098-05-20T15:00:00Z')));
    expect(reports.reduce((s, r) => s + r.paid, 0)).toBe(10);
    for (const linkId of links) {
      const row = await installment(linkId);
      expect(row.status).toBe('paid');
      expect(await approvedAtGateway(row.merchant_txn_id)).toHaveLength(1);
    }
  });

  it('a row whose lease expired before its turn in a batch is not charged by that pass; the next pass charges it once', async () => {
    const token = await storedToken('4000000000000002');
    const first = await planWithCard(token, '2098-11-10');
    const second = await planWithCard(token, '2098-11-10');
    await run('2098-11-03T15:00:00Z');
    // One batch of both, one at a time; the first sale is slow, and meanwhile the second row's lease runs out (as a
    // long batch's last rows would) and another pass could take it over.
    await fault({ mode: 'slow', delayMs: 1500, times: 1 });
    const pass = runPlanScheduler({
      db: db(),
      gateway: env.ctx.providers.gateway,
      config: env.ctx.config,
      now: new Date('2098-11-10T15:00:00Z'),
      log: env.ctx.log,
      limit: 2,
      concurrency: 1,
    });
    await new Promise((r) => setTimeout(r, 500));
    const late = await installment(second);
    expect(late.claimed_by).not.toBeNull();
    await db().query(
      `update plan_installment set claim_expires_at = now() - interval '1 second' where merchant_txn_id = $1`,
      [late.merchant_txn_id],
    );
    expect(await pass).toMatchObject({ paid: 1 });
    expect((await installment(first)).status).toBe('paid');
    expect(await installment(second)).toMatchObject({ status: 'notified', attempts: 0, last_failure: null });
    expect(await approvedAtGateway(late.merchant_txn_id)).toHaveLength(0);
    expect(await run('2098-11-10T15:05:00Z')).toMatchObject({ paid: 1 });
    expect(await approvedAtGateway(late.merchant_txn_id)).toHaveLength(1);
  });

  it('a process shutting down claims nothing more', async () => {
    const linkId = await planWithCard(await storedToken('4000000000000002'), '2098-12-10');
    const stopping = await runPlanScheduler({
      db: db(),
      gateway: env.ctx.providers.gateway,
      config: env.ctx.config,
      now: new Date('2098-12-03T15:00:00Z'),
      log: env.ctx.log,
      stopping: () => true,
    });
    expect(stopping).toMatchObject({ notified: 0, deferred: 0 });
    expect(await installment(linkId)).toMatchObject({ status: 'scheduled', claimed_by: null });
    expect(await run('2098-12-03T15:00:00Z')).toMatchObject({ notified: 1 });
    await cancel(linkId);
  });

  it('a declined card: retried after 1, 3 and 7 days with a new merchant id each time, the patient told, then failed', async () => {
    const linkId = await planWithCard(await storedToken('4000000000000341'), '2098-06-10', { language: 'es' });
    await run('2098-06-03T15:00:00Z');
    const first = await installment(linkId);
    expect(await run('2098-06-10T15:00:00Z')).toMatchObject({ declined: 1, paid: 0 });
    const declined = await installment(linkId);
    expect(declined).toMatchObject({
      status: 'notified',
      attempts: 1,
      last_failure: 'DECLINED: NSF',
      claimed_by: null,
    });
    expect(declined.next_attempt_at?.toISOString()).toBe('2098-06-11T15:00:00.000Z');
    expect(declined.merchant_txn_id).not.toBe(first.merchant_txn_id);
    const told = await messages(linkId, 'plan-declined');
    expect(told).toHaveLength(1);
    expect(told[0]!.body_text).toContain('rechazado');
    expect(told[0]!.body_text).toContain(`https://pay.example.com/auth?id=${linkId}&next=card&lng=es`);
    const events = await db().query(
      `select 1 from audit_event where link_id = $1 and action = 'installment.declined'`,
      [linkId],
    );
    expect(events.rowCount).toBe(1);

    expect((await run('2098-06-11T14:00:00Z')).declined).toBe(0);
    expect((await run('2098-06-11T15:00:00Z')).declined).toBe(1);
    expect((await installment(linkId)).next_attempt_at?.toISOString()).toBe('2098-06-14T15:00:00.000Z');
    expect((await run('2098-06-14T15:00:00Z')).declined).toBe(1);
    expect((await installment(linkId)).next_attempt_at?.toISOString()).toBe('2098-06-21T15:00:00.000Z');
    expect(await run('2098-06-21T15:00:00Z')).toMatchObject({ failed: 1 });
    expect(await installment(linkId)).toMatchObject({ status: 'failed', attempts: 4, next_attempt_at: null });
    expect(await messages(linkId, 'plan-failed')).toHaveLength(1);
    expect(await planStatus(linkId)).toBe('active');
    expect((await run('2098-07-30T15:00:00Z')).failed).toBe(0);
    await cancel(linkId);
  });

  it('approve-then-time-out: the next pass finds the approval and records it, one charge in all', async () => {
    const linkId = await planWithCard(await storedToken('4000000000000002'), '2098-08-10');
    await run('2098-08-03T15:00:00Z');
    const shortTimeout = createConvergeGateway({
      kind: 'sandbox',
      credentials: () => sandboxGatewayCredentials(db()),
      endpoints: convergeEndpoints('demo', env.gatewayOrigin),
      timeoutMs: 300,
    });
    await fault({ mode: 'approve-then-timeout', delayMs: 600, times: 1 });
    expect(await run('2098-08-10T15:00:00Z', shortTimeout)).toMatchObject({ unknown: 1, paid: 0 });
    const unknown = await installment(linkId);
    expect(unknown).toMatchObject({
      status: 'notified',
      last_failure: 'outcome_unknown',
      claimed_by: 'hold:outcome_unknown',
    });
    await new Promise((r) => setTimeout(r, 700));
    expect(await run('2098-08-10T15:05:00Z')).toMatchObject({ paid: 1 });
    const paid = await installment(linkId);
    expect(paid).toMatchObject({ status: 'paid', merchant_txn_id: unknown.merchant_txn_id, attempts: 1 });
    expect(await approvedAtGateway(paid.merchant_txn_id)).toHaveLength(1);
    const audit = await db().query<{ details: { reconciled: boolean } }>(
      `select details from audit_event where link_id = $1 and action = 'installment.paid'`,
      [linkId],
    );
    expect(audit.rows.map((r) => r.details.reconciled)).toEqual([true]);
  });

  it('never charges a patient who cannot be told: held with the reason for the practice, charged once told', async () => {
    const linkId = await planWithCard(await storedToken('4000000000000002'), '2098-10-10', {
      email: 'ana.diaz@example.com',
    });
    await db().transaction(async (tx) => {
      await optOut(tx, { channel: 'sms', address: '512-555-0147', source: 'test', actor: SYSTEM_ACTOR });
      await optOut(tx, { channel: 'email', address: 'ana.diaz@example.com', source: 'test', actor: SYSTEM_ACTOR });
    });
    expect(await run('2098-10-03T15:00:00Z')).toMatchObject({ notified: 0, deferred: 1 });
    // Held: looked at again a day later, not on every pass (a pass in between does not even claim it).
    const held1 = await installment(linkId);
    expect(held1.next_attempt_at).toEqual(new Date('2098-10-04T15:00:00Z'));
    expect(await run('2098-10-03T16:00:00Z')).toMatchObject({ notified: 0, deferred: 0 });
    expect((await installment(linkId)).updated_at).toEqual(held1.updated_at);
    expect(await run('2098-10-20T15:00:00Z')).toMatchObject({ notified: 0, paid: 0 });
    expect(await installment(linkId)).toMatchObject({ status: 'scheduled', last_failure: 'notice_undeliverable' });
    const held = await db().query(
      `select 1 from audit_event where link_id = $1 and action = 'installment.notice_undeliverable'`,
      [linkId],
    );
    expect(held.rows).toHaveLength(1);
    // The patient opts back in to e-mail: the notice goes out, and the charge waits the full notice period.
    await db().transaction((tx) =>
      optIn(tx, { channel: 'email', address: 'ana.diaz@example.com', source: 'test', actor: SYSTEM_ACTOR }),
    );
    expect(await run('2098-10-21T15:00:00Z')).toMatchObject({ notified: 1 });
    expect((await messages(linkId, 'plan-notice')).map((m) => m.channel)).toEqual(['email']);
    expect((await installment(linkId)).due_on).toBe('2098-10-28');
    expect(await run('2098-10-28T15:00:00Z')).toMatchObject({ paid: 1 });
  });

  it('skips paused and cancelled plans', async () => {
    const token = await storedToken('4000000000000002');
    const paused = await planWithCard(token, '2098-09-10');
    const cancelled = await planWithCard(token, '2098-09-10');
    await db().query(`update payment_plan set status = 'paused' where link_id = $1`, [paused]);
    await cancel(cancelled);
    expect(await run('2098-09-03T15:00:00Z')).toMatchObject({ notified: 0 });
    expect(await run('2098-09-30T15:00:00Z')).toMatchObject({ notified: 0, paid: 0 });
    expect((await installment(paused)).status).toBe('scheduled');
  });
});

describe('what the patient is told (issue 41)', () => {
  // Not the number an earlier test opted out of texts.
  const PHONE = '512-555-0190';
  /** The sandbox's 4000000000000358 is stored expiring next month by the real clock; our record says the same. */
  async function expiringCardPlan(dueOn: string, extra: Record<string, unknown> = {}) {
    const linkId = await planWithCard(await storedToken('4000000000000358'), dueOn, { phone: PHONE, ...extra });
    const next = new Date();
    next.setUTCMonth(next.getUTCMonth() + 1, 1);
    await db().query(`update stored_card set exp_month = $2, exp_year = $3 where link_id = $1`, [
      linkId,
      next.getUTCMonth() + 1,
      next.getUTCFullYear(),
    ]);
    return linkId;
  }

  it('a card expired by the due date: the notice asks for another card, and the sandbox declines it on the pass’s day', async () => {
    const linkId = await expiringCardPlan('2099-03-10');
    expect(await run('2099-03-03T15:00:00Z')).toMatchObject({ notified: 1 });
    expect(await messages(linkId, 'plan-notice')).toHaveLength(0);
    const [notice] = await messages(linkId, 'plan-notice-card-expired');
    expect(notice!.channel).toBe('sms');
    expect(notice!.body_text).toContain('The Visa card ending in 0358 will have expired by March 10, 2099');
    expect(notice!.body_text).not.toContain('will be charged to');
    expect(notice!.body_text).toContain(`https://pay.example.com/auth?id=${linkId}&next=card`);
    expect(notice!.body_text).toContain('If not, we try the old card and then');
    // The due date by the pass's clock: the card has expired, so the gateway declines it (the real clock would not).
    expect(await run('2099-03-10T15:00:00Z')).toMatchObject({ declined: 1, paid: 0 });
    const declined = await installment(linkId);
    expect(declined).toMatchObject({ status: 'notified', last_failure: 'EXPIRED CARD' });
    expect(await approvedAtGateway(declined.merchant_txn_id)).toHaveLength(0);
    await cancel(linkId);
  });

  it('the same notice by e-mail in Spanish says what happens otherwise', async () => {
    const linkId = await expiringCardPlan('2099-03-20', { language: 'es', phone: '', email: 'ana.es@example.com' });
    expect(await run('2099-03-13T15:00:00Z')).toMatchObject({ notified: 1 });
    const [notice] = await messages(linkId, 'plan-notice-card-expired');
    expect(notice!.channel).toBe('email');
    expect(notice!.body_text).toContain('la tarjeta Visa que termina en 0358 ya estará vencida');
    expect(notice!.body_text).toContain('Si no lo hace, intentaremos cobrar');
    expect(notice!.body_text).toContain('next=card&lng=es');
    await cancel(linkId);
  });

  it('a receipt goes by e-mail when the patient has one (card, ids, what remains); the plan paid in full is told', async () => {
    const linkId = await planWithCard(await storedToken('4000000000000002'), '2099-04-10', {
      phone: PHONE,
      email: 'ana.receipt@example.com',
    });
    await run('2099-04-03T15:00:00Z');
    // A single balance is not "payment 1/1".
    const [notice] = await messages(linkId, 'plan-notice');
    expect(notice!.channel).toBe('sms');
    expect(notice!.body_text).toContain(
      'the balance payment of $300.00 will be charged to the Visa card ending in 0002',
    );
    expect(notice!.body_text).not.toContain('1/1');
    expect(await run('2099-04-10T15:00:00Z')).toMatchObject({ paid: 1, completedPlans: 1 });
    const paid = await installment(linkId);
    const receipts = await messages(linkId, 'plan-receipt');
    expect(receipts.map((m) => m.channel)).toEqual(['email']);
    const [txn] = await approvedAtGateway(paid.merchant_txn_id);
    expect(receipts[0]!.body_text).toContain('we charged $300.00 to the Visa card ending in 0002');
    expect(receipts[0]!.body_text).toContain(`Transaction: ${txn!.txnId}`);
    expect(receipts[0]!.body_text).toContain(`Approval code: ${txn!.approvalCode}`);
    expect(receipts[0]!.body_text).toContain('Nothing remains to be paid on your plan.');
    const done = await messages(linkId, 'plan-completed');
    expect(done.map((m) => m.channel)).toEqual(['email']);
    expect(done[0]!.body_text).toContain('is paid in full: $500.00 in all');
  });

  it('in Spanish by SMS without an e-mail address; the last decline gives the next step', async () => {
    const linkId = await planWithCard(await storedToken('4000000000000341'), '2099-05-10', {
      language: 'es',
      phone: PHONE,
    });
    await run('2099-05-03T15:00:00Z');
    for (const at of ['2099-05-10', '2099-05-11', '2099-05-14', '2099-05-21']) await run(`${at}T15:00:00Z`);
    expect((await installment(linkId)).status).toBe('failed');
    const [failed] = await messages(linkId, 'plan-failed');
    expect(failed!.channel).toBe('sms');
    expect(failed!.body_text).toContain('el pago del saldo de $300.00 fue rechazado de nuevo');
    expect(failed!.body_text).toContain(`auth?id=${linkId}&next=card&lng=es`);
    expect(failed!.body_text).toMatch(/y llame al .+ para que la cobren/);
    await cancel(linkId);
  });
});

describe('POST /api/admin/plans/run', () => {
  const post = (headers: Record<string, string>, payload: object) =>
    env.app.inject({ method: 'POST', url: '/api/admin/plans/run', headers, payload });

  it('runs a pass at the given time for an admin in sandbox mode', async () => {
    const r = await post(admin, { now: '2099-01-01T15:00:00Z' });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ now: '2099-01-01T15:00:00.000Z', paid: 0, notified: 0 });
    expect((await post(admin, { now: 'tomorrow' })).statusCode).toBe(400);
  });

  it('is for admins only', async () => {
    const coordinator = {
      authorization: `Bearer ${await staffToken(db(), { email: 'plans-coord@example.com', role: 'coordinator' })}`,
    };
    expect((await post(coordinator, { now: '2099-01-01T15:00:00Z' })).statusCode).toBe(403);
  });

  it('is refused in production mode', async () => {
    const config = env.ctx.config;
    config.mode = 'production';
    try {
      const r = await post(admin, { now: '2099-01-01T15:00:00Z' });
      expect(r.statusCode).toBe(403);
      expect(r.json().message).toMatch(/sandbox mode only/);
    } finally {
      config.mode = 'sandbox';
    }
  });
});
