import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  confirm,
  createLinkAtPaymentStep,
  payWithSandbox,
  requestSessionToken,
  startPaymentTestEnv,
  type PaymentTestEnv,
} from '../../../test/support/payment-fixtures.js';
import { recordStatements, type StatementRecorder } from '../../../test/support/statements.js';

/**
 * Issue 30: the SQL statements each payment call of a patient journey sends (BEGIN and COMMIT count, as in
 * PostgreSQL's log). The sandbox gateway's own statements are not ours and are left out.
 */
let env: PaymentTestEnv;
let recorder: StatementRecorder;
beforeAll(async () => {
  env = await startPaymentTestEnv();
  recorder = recordStatements(env.ctx.db, { skip: (sql) => /sandbox_gateway/.test(sql) });
});
afterAll(async () => {
  recorder?.stop();
  await env?.close();
});

async function counted<T>(call: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  recorder.reset();
  const result = await call();
  // A copy: reset() clears the recorder's list in place.
  const statements = [...recorder.statements];
  if (process.env.SHOW_STATEMENTS) {
    console.log(statements.map((s) => s.replace(/\s+/g, ' ').trim().slice(0, 160)).join('\n'), '\n');
  }
  return { result, statements };
}

describe('statements per payment call (issue 30)', () => {
  it('the choice, the session token and the approval stay within their budgets', async () => {
    const link = await createLinkAtPaymentStep(env.ctx);
    await env.ctx.db.query('delete from payment where link_id = $1', [link.linkId]);

    const choice = await counted(() =>
      env.app.inject({
        method: 'POST',
        url: '/api/linkpaymenthistory',
        headers: link.headers,
        payload: { linkId: link.linkId, paymentTypeId: 1, paymentSourceId: 1, paymentAmount: 500 },
      }),
    );
    expect(choice.result.statusCode, choice.result.body).toBe(200);

    const session = await counted(() => requestSessionToken(env, link));
    expect(session.result.statusCode, session.result.body).toBe(200);

    const { pay } = await payWithSandbox(env.gatewayOrigin, {
      sessionToken: session.result.body,
      card: '4000000000000002',
      amountCents: link.amountCents,
    });
    expect(pay?.ssl_result).toBe('0');
    const approval = await counted(() => confirm(env, link, pay!.ssl_txn_id!));
    expect(approval.result.statusCode, approval.result.body).toBe(200);

    const figures = {
      choice: choice.statements.length,
      session: session.statements.length,
      approval: approval.statements.length,
    };
    if (process.env.SHOW_STATEMENTS) console.log('statements per call', figures);
    // Before issue 30's payments pass: 6, 18 (+1 the first time the sandbox's secret is read) and 20.
    expect(figures.choice).toBeLessThanOrEqual(5);
    expect(figures.session).toBeLessThanOrEqual(13);
    expect(figures.approval).toBeLessThanOrEqual(15);
    // Every audit row is still written (one statement may carry several).
    const actions = await env.ctx.db.query<{ action: string }>(
      'select action from audit_event where link_id = $1 order by id',
      [link.linkId],
    );
    expect(actions.rows.map((r) => r.action)).toEqual([
      'payment.choice_recorded',
      'payment.session_requested',
      'payment.session_issued',
      'payment.approved',
      'step.completed',
      'step.completed',
      'link.completed',
      'payment.receipt_queued',
    ]);
  });

  it('a revoked session is refused 401 by the token request and the confirmation, which change nothing', async () => {
    const link = await createLinkAtPaymentStep(env.ctx);
    const session = await requestSessionToken(env, link);
    expect(session.statusCode).toBe(200);
    const { pay } = await payWithSandbox(env.gatewayOrigin, {
      sessionToken: session.body,
      card: '4000000000000002',
      amountCents: link.amountCents,
    });
    await env.ctx.db.query('update patient_session set revoked_at = now() where link_id = $1', [link.linkId]);
    const audits = async () =>
      (await env.ctx.db.query('select 1 from audit_event where link_id = $1', [link.linkId])).rowCount;
    const before = await audits();

    const again = await requestSessionToken(env, link);
    expect(again.statusCode).toBe(401);
    expect(again.json().message).toMatch(/session has ended/);
    const confirmed = await confirm(env, link, pay!.ssl_txn_id!);
    expect(confirmed.statusCode).toBe(401);
    expect(confirmed.json().message).toMatch(/session has ended/);

    const p = await env.ctx.db.query<{ status: string }>('select status from payment where link_id = $1', [
      link.linkId,
    ]);
    expect(p.rows[0]!.status).toBe('chosen');
    expect(await audits()).toBe(before);
  });
});
