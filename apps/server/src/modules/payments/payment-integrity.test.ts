import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedLink } from '../../seed/sample-links.js';
import { apiHeaders, mintPatientToken } from '../../../test/support/context.js';
import {
  confirm,
  createLinkAtPaymentStep,
  payWithSandbox,
  requestSessionToken,
  startPaymentTestEnv,
  type PaymentTestEnv,
} from '../../../test/support/payment-fixtures.js';
import { staffToken } from '../../seed/seed-staff.js';
import { sandboxGatewayFor } from '../../side-servers.js';
import { reconcileDueAttempts } from './reconcile-payment.js';

/** Issue 10, items 2 and 3: no token before the documents, no choice change under a live token. */
let env: PaymentTestEnv;
beforeAll(async () => {
  env = await startPaymentTestEnv();
});
afterAll(async () => env?.close());

describe('paying without the documents (item 2)', () => {
  it('refuses a token (409 steps_incomplete) while a step before the payment is open, and charges nothing', async () => {
    const { link } = await seedLink(env.ctx, {});
    const token = await mintPatientToken(env.ctx, link.id);
    const headers = apiHeaders(env.ctx, token);
    const steps = await env.app.inject({
      method: 'POST',
      url: `/api/linksteps/script?linkId=${link.id}&paymentAmount=500`,
      headers,
    });
    expect(steps.statusCode).toBe(200);
    const r = await env.app.inject({ method: 'POST', url: '/api/converge?amount=500', headers });
    expect(r.statusCode).toBe(409);
    expect(r.json()).toMatchObject({ error: 'steps_incomplete' });
    expect(r.json().message).toMatch(/invoice|document|step/i);
    const attempts = await env.ctx.db.query('select 1 from payment_attempt where link_id = $1', [link.id]);
    expect(attempts.rowCount).toBe(0);
  });

  it('refuses a confirmation when a step before the payment is not complete, and leaves the link active', async () => {
    const link = await createLinkAtPaymentStep(env.ctx);
    const t = await requestSessionToken(env, link);
    expect(t.statusCode).toBe(200);
    const { pay } = await payWithSandbox(env.gatewayOrigin, {
      sessionToken: t.body,
      card: '4000000000000002',
      amountCents: link.amountCents,
    });
    // A step before the payment reopened meanwhile (e.g. staff regenerated a document).
    await env.ctx.db.query(
      `update link_step set status_id = 2, completed_at = null where link_id = $1 and position = 2`,
      [link.linkId],
    );
    const r = await confirm(env, link, pay!.ssl_txn_id!);
    expect(r.statusCode).toBe(409);
    expect(r.json()).toMatchObject({ error: 'steps_incomplete' });
    const l = await env.ctx.db.query<{ status: string }>('select status from link where id = $1', [link.linkId]);
    expect(l.rows[0]!.status).toBe('active');
  });
});

describe('changing the amount under a live token (item 3)', () => {
  it('refuses 409 payment_in_progress, so the old token cannot charge a different amount', async () => {
    const link = await createLinkAtPaymentStep(env.ctx, { amountDollars: 1000 });
    // The step list is not frozen in this state: only patient information is complete before the payment.
    await env.ctx.db.query(
      `update link_step set status_id = 1, completed_at = null where link_id = $1 and position > 1`,
      [link.linkId],
    );
    await env.ctx.db.query(
      `update link_step set status_id = 4, completed_at = now() where link_id = $1 and position > 1
         and route_path not in ('/paymentauthorization', '/confirmation')`,
      [link.linkId],
    );
    const t = await requestSessionToken(env, link, '1000');
    expect(t.statusCode).toBe(200);
    await env.ctx.db.query(
      `update link_step set status_id = 1, completed_at = null where link_id = $1 and position > 1`,
      [link.linkId],
    );
    const change = await env.app.inject({
      method: 'POST',
      url: '/api/linkpaymenthistory',
      headers: link.headers,
      payload: { linkId: link.linkId, paymentTypeId: 1, paymentSourceId: 1, paymentAmount: 250 },
    });
    expect(change.statusCode).toBe(409);
    expect(change.json()).toMatchObject({ error: 'payment_in_progress' });
    const p = await env.ctx.db.query<{ amount_cents: number }>('select amount_cents from payment where link_id = $1', [
      link.linkId,
    ]);
    expect(p.rows[0]!.amount_cents).toBe(100000);
  });
});

describe('approved at the gateway, never confirmed (item 1)', () => {
  async function paidButNotConfirmed(amountDollars = 500) {
    const link = await createLinkAtPaymentStep(env.ctx, { amountDollars });
    const t = await requestSessionToken(env, link);
    expect(t.statusCode).toBe(200);
    const { pay } = await payWithSandbox(env.gatewayOrigin, {
      sessionToken: t.body,
      card: '4000000000000002',
      amountCents: link.amountCents,
    });
    expect(pay?.ssl_result).toBe('0');
    return { link, txnId: pay!.ssl_txn_id! };
  }
  const approvalsAtGateway = async (linkId: string) =>
    (
      await env.ctx.db.query(
        `select 1 from sandbox_gateway_transaction t join payment_attempt a on a.id = t.merchant_txn_id
         where a.link_id = $1 and t.result = '0'`,
        [linkId],
      )
    ).rowCount;

  it('the next token request records the first approval instead of charging again', async () => {
    const { link, txnId } = await paidButNotConfirmed();
    const again = await requestSessionToken(env, link);
    expect(again.statusCode).toBe(401);
    expect(again.body).toBe('Process has completed.');
    const p = await env.ctx.db.query<{ status: string; transaction_id: string }>(
      'select status, transaction_id from payment where link_id = $1',
      [link.linkId],
    );
    expect(p.rows[0]).toEqual({ status: 'approved', transaction_id: txnId });
    expect(await approvalsAtGateway(link.linkId)).toBe(1);
    const audit = await env.ctx.db.query<{ action: string }>('select action from audit_event where link_id = $1', [
      link.linkId,
    ]);
    expect(audit.rows.map((r) => r.action)).toContain('payment.reconciled');
    const receipt = await env.ctx.db.query(`select 1 from outbox_message where link_id = $1 and kind = 'receipt'`, [
      link.linkId,
    ]);
    expect(receipt.rowCount).toBe(1);
  });

  it('a returning patient (continue check) who was charged lands on the completed state at once', async () => {
    const { link } = await paidButNotConfirmed();
    const r = await env.app.inject({ url: `/api/linksteps/script/${link.linkId}/check`, headers: link.headers });
    expect(r.statusCode).toBe(401);
    expect(r.body).toBe('Process has completed.');
  });

  it('the background pass records an approval nobody reported, once, with several passes racing', async () => {
    const { link, txnId } = await paidButNotConfirmed();
    await env.ctx.db.query(`update payment_attempt set reconcile_due_at = now() where link_id = $1`, [link.linkId]);
    const deps = { db: env.ctx.db, gateway: env.ctx.providers.gateway };
    const reports = await Promise.all([reconcileDueAttempts(deps), reconcileDueAttempts(deps)]);
    expect(reports.reduce((n, r) => n + r.approved, 0)).toBeGreaterThanOrEqual(1);
    const p = await env.ctx.db.query<{ status: string; transaction_id: string }>(
      'select status, transaction_id from payment where link_id = $1',
      [link.linkId],
    );
    expect(p.rows[0]).toEqual({ status: 'approved', transaction_id: txnId });
    const l = await env.ctx.db.query<{ status: string }>('select status from link where id = $1', [link.linkId]);
    expect(l.rows[0]!.status).toBe('completed');
  });

  it('a second approval for a paid link is recorded and flagged for a void, visible in the admin payments list', async () => {
    const { link } = await paidButNotConfirmed();
    // A second tab had its own token (the first one was closed by a reported "decline") and paid too.
    await env.ctx.db.query(`update payment_attempt set status = 'closed' where link_id = $1`, [link.linkId]);
    const second = await env.ctx.db.query<{ id: string }>(
      `insert into payment_attempt (id, link_id, payment_id, amount_cents, gateway, status)
       select $2, link_id, payment_id, amount_cents, gateway, 'creating' from payment_attempt where link_id = $1 limit 1
       returning id`,
      [link.linkId, `${'b'.repeat(8)}${Date.now().toString(16)}`.slice(0, 24).padEnd(24, 'c')],
    );
    const token = await env.ctx.providers.gateway.createSessionToken({
      amountCents: link.amountCents,
      merchantTxnId: second.rows[0]!.id,
    });
    await env.ctx.db.query(`update payment_attempt set status = 'open', session_token = $2 where id = $1`, [
      second.rows[0]!.id,
      token,
    ]);
    const { pay } = await payWithSandbox(env.gatewayOrigin, {
      sessionToken: token,
      card: '4000000000000002',
      amountCents: link.amountCents,
    });
    expect(pay?.ssl_result).toBe('0');
    await env.ctx.db.query(`update payment_attempt set reconcile_due_at = now() where link_id = $1`, [link.linkId]);
    const deps = { db: env.ctx.db, gateway: env.ctx.providers.gateway };
    await reconcileDueAttempts(deps);
    expect(await approvalsAtGateway(link.linkId)).toBe(2);
    const flagged = await env.ctx.db.query<{ status: string; attention_reason: string; transaction_id: string }>(
      `select status, attention_reason, transaction_id from payment_attempt where link_id = $1 and needs_attention`,
      [link.linkId],
    );
    expect(flagged.rows).toHaveLength(1);
    expect(flagged.rows[0]).toMatchObject({ status: 'duplicate', attention_reason: 'second_approval' });
    const audit = await env.ctx.db.query(
      `select 1 from audit_event where link_id = $1 and action = 'payment.second_approval_flagged'`,
      [link.linkId],
    );
    expect(audit.rowCount).toBe(1);
    const staff = await staffToken(env.ctx.db, { email: 'billing-i10@example.com', role: 'admin' });
    const list = await env.app.inject({
      url: '/api/admin/payments?limit=500',
      headers: { authorization: `Bearer ${staff}` },
    });
    expect(list.statusCode).toBe(200);
    const row = (list.json() as { payments: { linkId: string; attention: { reason: string }[] }[] }).payments.find(
      (p) => p.linkId === link.linkId,
    );
    expect(row?.attention).toEqual([expect.objectContaining({ reason: 'second_approval', amount: 500 })]);
  });

  it('when the gateway cannot be asked, the confirmation tells the truth and no new token is issued', async () => {
    const { link, txnId } = await paidButNotConfirmed();
    await env.gateway.close(); // the gateway is down during confirmation
    try {
      const r = await confirm(env, link, txnId);
      expect(r.statusCode).toBe(503);
      expect(r.json()).toMatchObject({ error: 'payment_unconfirmed' });
      expect(r.json().message).toMatch(/do not pay again/i);
      expect(r.json().message).not.toMatch(/nothing was charged/i);
      const again = await requestSessionToken(env, link);
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ error: 'payment_checking' });
      expect(again.json().message).toMatch(/checking your last payment/i);
    } finally {
      const again = await sandboxGatewayFor(env.ctx);
      await again.listen({ port: Number(new URL(env.gatewayOrigin).port), host: '127.0.0.1' });
      env.gateway = again;
    }
  });
});
