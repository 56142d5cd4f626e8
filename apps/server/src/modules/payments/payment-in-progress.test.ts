import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiHeaders, mintPatientToken } from '../../../test/support/context.js';
import {
  confirm,
  createLinkAtPaymentStep,
  payWithSandbox,
  requestSessionToken,
  startPaymentTestEnv,
  type PaymentTestEnv,
  type TestLink,
} from '../../../test/support/payment-fixtures.js';

/**
 * Issue 25: two browsers on one link press PAY NOW at the same moment. Each browser has its own session (it signed in
 * on its own). The first one's token is its own: the other is told that a payment for this link is in progress
 * (409 payment_in_progress) instead of sharing a single-use token that only one of them can use, and it can follow
 * that payment (GET /api/converge/state) until it ends. Submits of one session still share their token.
 */
let env: PaymentTestEnv;
beforeAll(async () => {
  env = await startPaymentTestEnv();
});
afterAll(async () => env?.close());

/** The same link signed in a second time, in another browser. */
async function otherBrowser(link: TestLink): Promise<TestLink> {
  const token = await mintPatientToken(env.ctx, link.linkId);
  return { ...link, token, headers: apiHeaders(env.ctx, token) };
}

const state = (link: TestLink) => env.app.inject({ method: 'GET', url: '/api/converge/state', headers: link.headers });

const logDecline = (link: TestLink, pay: unknown) =>
  env.app.inject({
    method: 'POST',
    url: `/api/linkpaymenthistory/${link.linkId}/log`,
    headers: link.headers,
    payload: { linkStepId: link.paymentStepId, payload: JSON.stringify({ kind: 'declined', ...(pay as object) }) },
  });

describe('two browsers pay one link at the same moment', () => {
  it('one session gets the token (shared by its own submits); the other is answered 409 payment_in_progress', async () => {
    const a = await createLinkAtPaymentStep(env.ctx);
    const b = await otherBrowser(a);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => requestSessionToken(env, i % 2 ? b : a).then((r) => ({ i, r }))),
    );
    const ok = answers.filter(({ r }) => r.statusCode === 200);
    const refused = answers.filter(({ r }) => r.statusCode !== 200);
    // Whichever browser got there first owns the attempt: all its submits share one token.
    const owner = ok[0]!.i % 2;
    expect(ok.map(({ i }) => i % 2)).toEqual(Array(6).fill(owner));
    expect(new Set(ok.map(({ r }) => r.body)).size).toBe(1);
    expect(refused).toHaveLength(6);
    for (const { i, r } of refused) {
      expect(i % 2).not.toBe(owner);
      expect(r.statusCode).toBe(409);
      expect(r.json()).toEqual({
        error: 'payment_in_progress',
        message:
          'A payment for this link is already in progress in another window or on another device. Wait for its result: this page will show it.',
      });
    }
    const attempts = await env.ctx.db.query('select 1 from payment_attempt where link_id = $1', [a.linkId]);
    expect(attempts.rowCount).toBe(1);
  });

  it('the other browser follows the payment: in progress, then completed (401 Process has completed.)', async () => {
    const a = await createLinkAtPaymentStep(env.ctx);
    const b = await otherBrowser(a);
    expect((await state(b)).json()).toEqual({ inProgress: false });
    const token = await requestSessionToken(env, a);
    expect(token.statusCode).toBe(200);
    expect((await requestSessionToken(env, b)).statusCode).toBe(409);
    expect((await state(b)).json()).toEqual({ inProgress: true });
    const { pay } = await payWithSandbox(env.gatewayOrigin, {
      sessionToken: token.body,
      card: '4000000000000002',
      amountCents: a.amountCents,
    });
    expect((await confirm(env, a, pay!.ssl_txn_id!)).statusCode).toBe(200);
    const done = await state(b);
    expect(done.statusCode).toBe(401);
    expect(done.body).toBe('Process has completed.');
    expect((await requestSessionToken(env, b)).body).toBe('Process has completed.');
  });

  it('the other browser may pay once the first payment was declined; its own failure never ends the first', async () => {
    const a = await createLinkAtPaymentStep(env.ctx);
    const b = await otherBrowser(a);
    const token = await requestSessionToken(env, a);
    // A failure reported by the other browser (its gateway script failed, say) does not retire the first one's token.
    expect((await logDecline(b, { kind: 'unavailable' })).statusCode).toBe(201);
    expect((await state(b)).json()).toEqual({ inProgress: true });
    expect((await requestSessionToken(env, b)).statusCode).toBe(409);
    const { pay } = await payWithSandbox(env.gatewayOrigin, {
      sessionToken: token.body,
      card: '4000000000000085',
      amountCents: a.amountCents,
    });
    expect(pay).toMatchObject({ ssl_result_message: 'DECLINED' });
    expect((await logDecline(a, pay)).statusCode).toBe(201);
    expect((await state(b)).json()).toEqual({ inProgress: false });
    const second = await requestSessionToken(env, b);
    expect(second.statusCode).toBe(200);
    expect(second.body).not.toBe(token.body);
  });

  it('an attempt whose outcome the gateway could not tell yet counts as in progress', async () => {
    const a = await createLinkAtPaymentStep(env.ctx);
    const b = await otherBrowser(a);
    expect((await requestSessionToken(env, a)).statusCode).toBe(200);
    await env.ctx.db.query(`update payment_attempt set status = 'unknown' where link_id = $1`, [a.linkId]);
    expect((await state(b)).json()).toEqual({ inProgress: true });
  });
});
