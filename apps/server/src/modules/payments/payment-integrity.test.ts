import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedLink } from '../../seed/sample-links.js';
import { apiHeaders, mintPatientToken } from '../../test-support/context.js';
import {
  confirm,
  createLinkAtPaymentStep,
  payWithSandbox,
  requestSessionToken,
  startPaymentTestEnv,
  type PaymentTestEnv,
} from './payment-fixtures.js';

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
