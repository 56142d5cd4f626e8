import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '../../lib/audit.js';
import { newLinkId } from '../../lib/ids.js';
import { convergeEndpoints, createConvergeGateway } from '../../providers/gateway/converge.js';
import { sandboxGatewayCredentials } from '../../providers/gateway/sandbox.js';
import type { CardGateway } from '../../providers/gateway/types.js';
import { staffToken } from '../../seed/seed-staff.js';
import { payWithSandbox, startPaymentTestEnv, type PaymentTestEnv } from '../../../test/support/payment-fixtures.js';
import { materialisePlan, runPlanScheduler, sealCardToken } from './index.js';

/**
 * Issue 41 item 1: a stored-card sale whose answer does not come back in time is held (decision 0237). The sandbox
 * gateway holds the sale itself (its `slow` fault: nothing recorded yet) past the server's request timeout; a second
 * "Charge now" is refused 409 charge_in_progress and a scheduler pass leaves it alone, so the gateway holds ONE sale,
 * recorded once the gateway has it. Before the fix the second press looked the id up while the first sale was still
 * in flight, found nothing and sent a second sale. Works in 2096, away from the other plan tests' months.
 */
let env: PaymentTestEnv;
let billing: Record<string, string>;
/** The server's adapter with a short request timeout, so the sandbox's held sale outlasts it in a test's time. */
let shortTimeout: CardGateway;
let usual: CardGateway;
beforeAll(async () => {
  env = await startPaymentTestEnv({
    PUBLIC_URL: 'https://pay.example.com',
    PRACTICE_TIME_ZONE: 'America/Chicago',
    REMINDER_QUIET_HOURS: 'off',
  });
  billing = {
    authorization: `Bearer ${await staffToken(env.ctx.db, { email: 'unknown-billing@example.com', role: 'billing' })}`,
  };
  usual = env.ctx.providers.gateway;
  shortTimeout = createConvergeGateway({
    kind: 'sandbox',
    credentials: () => sandboxGatewayCredentials(env.ctx.db),
    endpoints: convergeEndpoints('demo', env.gatewayOrigin),
    timeoutMs: 400,
  });
});
afterAll(async () => {
  env.ctx.providers.gateway = usual;
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
const chargeNow = (linkId: string) =>
  env.app.inject({
    method: 'POST',
    url: `/api/admin/links/${linkId}/plan/installments/1/charge`,
    headers: billing,
    payload: {},
  });

/** The link's plan as the console's link page reads it. */
async function staffPlan(linkId: string) {
  const r = await env.app.inject({ method: 'GET', url: `/api/admin/links/${linkId}`, headers: billing });
  expect(r.statusCode, r.body).toBe(200);
  return r.json().plan as { installments: { n: number; status: string; chargeInProgress?: true; heldUntil: string }[] };
}

async function storedToken(): Promise<string> {
  const gateway = env.ctx.providers.gateway;
  const sessionToken = await gateway.createSessionToken({
    amountCents: 20000,
    merchantTxnId: newLinkId().replace(/[-_]/g, 'x'),
    firstName: 'Ana',
    lastName: 'Garcia',
    storeCard: true,
  });
  const { pay } = await payWithSandbox(env.gatewayOrigin, {
    sessionToken,
    card: '4000000000000002',
    amountCents: 20000,
  });
  return (await gateway.queryTransaction(pay!.ssl_txn_id!))!.cardToken!;
}

/** A link with a $500 plan, its $200 deposit recorded and card stored: one $300 instalment due `dueOn`. */
async function planLink(dueOn: string, plan: object = { kind: 'single', dueOn }): Promise<string> {
  const r = await env.app.inject({
    method: 'POST',
    url: '/api/admin/links',
    headers: {
      authorization: `Bearer ${await staffToken(db(), { email: 'unknown-admin@example.com', role: 'admin' })}`,
    },
    payload: { firstName: 'Ana', lastName: 'Diaz', phone: '512-555-0147', plan: { total: 500, ...plan } },
  });
  expect(r.statusCode, r.body).toBe(201);
  const linkId = r.json().id as string;
  // The deposit's payment row, as an approved deposit leaves it.
  await db().query(
    `insert into payment (link_id, payment_type_id, payment_source_id, amount_cents, status, transaction_id, paid_at,
                          card_brand, card_last4)
     values ($1, 1, 1, 20000, 'approved', $2, now(), 'visa', '0002')`,
    [linkId, `dep${linkId.replace(/[-_]/g, '')}`.slice(0, 30)],
  );
  await db().transaction((tx) => materialisePlan({ tx, actor: SYSTEM_ACTOR, linkId, paidCents: 20_000 }));
  await db().query(`insert into stored_card (link_id, token_sealed, brand, last4) values ($1, $2, 'visa', '0002')`, [
    linkId,
    await sealCardToken({ ...env.ctx, q: env.ctx.db }, await storedToken()),
  ]);
  return linkId;
}

async function installment(linkId: string) {
  const r = await db().query<{
    status: string;
    merchant_txn_id: string;
    gateway_txn_id: string | null;
    last_failure: string | null;
  }>(
    `select i.status, i.merchant_txn_id, i.gateway_txn_id, i.last_failure
       from plan_installment i join payment_plan p on p.id = i.plan_id where p.link_id = $1`,
    [linkId],
  );
  return r.rows[0]!;
}

/** The gateway's own record of the sales under this merchant transaction id (its transaction table). */
async function salesAtGateway(merchantTxnId: string) {
  const r = await db().query<{ txn_id: string; result: string }>(
    `select txn_id, result from sandbox_gateway_transaction where merchant_txn_id = $1 and result = '0'`,
    [merchantTxnId],
  );
  return r.rows;
}

describe('an instalment sale whose answer is lost', () => {
  it('is held: a second "Charge now" is 409 charge_in_progress, a pass skips it, ONE sale, recorded', async () => {
    const linkId = await planLink('2096-03-20');
    env.ctx.providers.gateway = shortTimeout;
    try {
      // The gateway sits on the sale 2.5 s before it records it; the server gives up after 0.4 s.
      await fault({ mode: 'slow', delayMs: 2_500, times: 1 });
      const first = await chargeNow(linkId);
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json().outcome).toBe('unknown');
      // The staff view carries the hold, so the console shows it instead of a second "Charge now" (the answer's plan
      // and the link page's alike).
      expect(first.json().plan.installments[0]).toMatchObject({ n: 1, chargeInProgress: true });
      const shown = await staffPlan(linkId);
      expect(shown.installments[0]).toMatchObject({ n: 1, status: 'notified', chargeInProgress: true });
      const heldUntil = Date.parse(shown.installments[0]!.heldUntil);
      // Held for the gateway's outcome window (the request timeout + the margin) from about now.
      expect(heldUntil - Date.now()).toBeGreaterThan(60_000);
      expect(heldUntil - Date.now()).toBeLessThan(shortTimeout.outcomeWindowMs + 60_000);

      // Pressed again while the gateway may still be working on the first sale: refused, nothing sent.
      const again = await chargeNow(linkId);
      expect(again.statusCode, again.body).toBe(409);
      expect(again.json().error).toBe('charge_in_progress');
      expect(again.json().message).toMatch(/not known yet|has not come back/);
      // The pass on its due day: nothing charged either.
      const pass = await run('2096-03-20T15:00:00Z');
      expect(pass).toMatchObject({ declined: 0, failed: 0, unknown: 0 });
      expect(await installment(linkId)).toMatchObject({ status: expect.stringMatching(/notified|paid/) });
    } finally {
      env.ctx.providers.gateway = usual;
    }

    // Once the gateway has the sale, a pass finds it and records it: still one sale in all.
    for (let i = 0; i < 60 && (await installment(linkId)).status !== 'paid'; i++) {
      await new Promise((r) => setTimeout(r, 500));
      await run('2096-03-20T15:05:00Z');
    }
    const paid = await installment(linkId);
    const sales = await salesAtGateway(paid.merchant_txn_id);
    expect(sales).toHaveLength(1);
    expect(paid).toMatchObject({ status: 'paid', gateway_txn_id: sales[0]!.txn_id, last_failure: null });
    const settled = (await staffPlan(linkId)).installments[0];
    expect(settled).toMatchObject({ status: 'paid' });
    expect(settled).not.toHaveProperty('chargeInProgress');
    expect(settled).not.toHaveProperty('heldUntil');
    // And later passes and presses change nothing.
    await run('2096-03-21T15:00:00Z');
    expect((await chargeNow(linkId)).statusCode).toBe(409);
    expect(await salesAtGateway(paid.merchant_txn_id)).toHaveLength(1);
  });

  it('two approved sales under one merchant transaction id: one recorded, the other flagged for billing to void', async () => {
    const linkId = await planLink('2096-05-20');
    const { merchant_txn_id: merchantTxnId } = await installment(linkId);
    // What the bug left behind: the first sale's answer lost, a second sale sent under the same id, both approved.
    const token = await storedToken();
    const req = { token, amountCents: 30_000, merchantTxnId, installment: { number: 1, count: 1 } };
    const a = await usual.chargeStoredCard(req);
    const b = await usual.chargeStoredCard(req);
    await db().query(
      `update plan_installment set status = 'notified', attempts = 1, last_failure = 'outcome_unknown',
              claimed_by = null, claim_expires_at = null, notified_at = now()
        where merchant_txn_id = $1`,
      [merchantTxnId],
    );
    expect(await run('2096-05-20T15:00:00Z')).toMatchObject({ paid: 1 });
    const paid = await installment(linkId);
    expect(paid.status).toBe('paid');
    expect([a.txnId, b.txnId]).toContain(paid.gateway_txn_id);
    const other = paid.gateway_txn_id === a.txnId ? b.txnId : a.txnId;

    const admin = {
      authorization: `Bearer ${await staffToken(db(), { email: 'unknown-admin@example.com', role: 'admin' })}`,
    };
    const flags = await env.app.inject({ method: 'GET', url: '/api/admin/payments/attention', headers: admin });
    expect(flags.statusCode, flags.body).toBe(200);
    const flag = (
      flags.json().flags as { attemptId: string; linkId: string; transactionId: string; amount: number }[]
    ).filter((f) => f.linkId === linkId);
    expect(flag).toEqual([expect.objectContaining({ transactionId: other, amount: 300 })]);
    // The deposit's "Void" gives it back, and the queue is empty again.
    const voided = await env.app.inject({
      method: 'POST',
      url: `/api/admin/payments/attention/${flag[0]!.attemptId}/void`,
      headers: admin,
      payload: { reason: 'instalment charged twice' },
    });
    expect(voided.statusCode, voided.body).toBe(201);
    expect(voided.json()).toMatchObject({ kind: 'void', amount: 300 });
    const after = await env.app.inject({ method: 'GET', url: '/api/admin/payments/attention', headers: admin });
    expect((after.json().flags as { linkId: string }[]).filter((f) => f.linkId === linkId)).toEqual([]);
    expect((await run('2096-05-21T15:00:00Z')).paid).toBe(0);
  });
  it.each([
    ['en', 'ana@example.com'],
    ['es', ''],
  ] as const)(
    'the Void of a duplicate instalment sale sends a receipt naming the instalment and its figures (%s)',
    async (lang, email) => {
      const linkId = await planLink('2096-07-20', {
        kind: 'installments',
        count: 2,
        every: 'month',
        firstDueOn: '2096-07-20',
      });
      await db().query(`update link set language = $2, email = $3 where id = $1`, [linkId, lang, email]);
      const { merchant_txn_id: merchantTxnId } = await installment(linkId);
      // Two approved $150.00 sales for instalment 1 of 2, as the bug left them.
      const token = await storedToken();
      const req = { token, amountCents: 15_000, merchantTxnId, installment: { number: 1, count: 2 } };
      await usual.chargeStoredCard(req);
      await usual.chargeStoredCard(req);
      await db().query(
        `update plan_installment set status = 'notified', attempts = 1, last_failure = 'outcome_unknown',
                claimed_by = null, claim_expires_at = null, notified_at = now()
          where merchant_txn_id = $1`,
        [merchantTxnId],
      );
      expect(await run('2096-07-20T15:00:00Z')).toMatchObject({ paid: 1 });
      const admin = {
        authorization: `Bearer ${await staffToken(db(), { email: 'unknown-admin@example.com', role: 'admin' })}`,
      };
      const flags = await env.app.inject({ method: 'GET', url: '/api/admin/payments/attention', headers: admin });
      const flag = (flags.json().flags as { attemptId: string; linkId: string }[]).find((f) => f.linkId === linkId)!;
      const voided = await env.app.inject({
        method: 'POST',
        url: `/api/admin/payments/attention/${flag.attemptId}/void`,
        headers: admin,
        payload: { reason: 'instalment charged twice' },
      });
      expect(voided.statusCode, voided.body).toBe(201);
      expect(voided.json()).toMatchObject({ kind: 'void', amount: 150, installment: { n: 1, count: 2 } });

      const receipts = (
        await db().query<{ channel: string; body_text: string }>(
          `select channel, body_text from outbox_message where link_id = $1 and kind = 'refund-receipt' order by id`,
          [linkId],
        )
      ).rows;
      expect(receipts).toHaveLength(1);
      const text = receipts[0]!.body_text;
      if (lang === 'en') {
        expect(receipts[0]!.channel).toBe('email');
        expect(text).toContain('Your card was charged twice for installment 1 of 2 of your payment plan');
        expect(text).toContain('The second charge, $150.00, has been cancelled in full before it was processed');
        expect(text).toContain('Amount refunded: $150.00 (USD)');
        // What stays paid is the instalment's own $150.00 charge, not the $200.00 deposit.
        expect(text).toContain('Installment 1 of 2 stays paid: $150.00 (USD)');
        expect(text).not.toContain('$200.00');
        expect(text).not.toContain('Still paid');
      } else {
        expect(receipts[0]!.channel).toBe('sms');
        expect(text).toContain('se cobró dos veces a su tarjeta terminada en');
        expect(text).toContain('la cuota 1 de 2 de su plan de pagos');
        expect(text).toContain(
          'Le devolvimos por completo el segundo cargo, de $150.00; la cuota 1 de 2 sigue pagada.',
        );
      }
      // The webhook names the instalment too.
      const hook = await db().query<{ body: string }>(
        `select body from webhook_event where link_id = $1 and type = 'payment.refunded'`,
        [linkId],
      );
      for (const r of hook.rows) expect(JSON.parse(r.body).data.refund.installment).toEqual({ n: 1, count: 2 });
    },
  );
});
