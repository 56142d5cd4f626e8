import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleSandboxBatch } from '../../providers/gateway/sandbox.js';
import { staffToken } from '../../seed/seed-staff.js';
import {
  confirm,
  createLinkAtPaymentStep,
  flagSecondApproval,
  payWithSandbox,
  requestSessionToken,
  startPaymentTestEnv,
  type PaymentTestEnv,
} from '../../../test/support/payment-fixtures.js';

/**
 * A second approval flagged by reconciliation is given back in one admin action, against the sandbox gateway over
 * real HTTP: void while unsettled, return once settled; the flag leaves the attention list; the recorded payment stays.
 */
let env: PaymentTestEnv;
let billing: Record<string, string>;
let coordinator: Record<string, string>;
beforeAll(async () => {
  env = await startPaymentTestEnv();
  billing = {
    authorization: `Bearer ${await staffToken(env.ctx.db, { email: 'bill-flag@example.com', role: 'billing' })}`,
  };
  coordinator = {
    authorization: `Bearer ${await staffToken(env.ctx.db, { email: 'coord-flag@example.com', role: 'coordinator' })}`,
  };
});
afterAll(async () => env?.close());

async function paidAndFlagged(language: 'en' | 'es' = 'en') {
  const link = await createLinkAtPaymentStep(env.ctx, { amountDollars: 500, language });
  const t = await requestSessionToken(env, link);
  const { pay } = await payWithSandbox(env.gatewayOrigin, {
    sessionToken: t.body,
    card: '4000000000000002',
    amountCents: link.amountCents,
  });
  expect((await confirm(env, link, pay!.ssl_txn_id!)).statusCode).toBe(200);
  const flag = await flagSecondApproval(env, link);
  return { link, firstTxnId: pay!.ssl_txn_id!, ...flag };
}

const voidFlag = (attemptId: string, body: object, headers: Record<string, string> = billing) =>
  env.app.inject({ method: 'POST', url: `/api/admin/payments/attention/${attemptId}/void`, headers, payload: body });

async function listed(linkId: string) {
  const r = await env.app.inject({ url: '/api/admin/payments?limit=500', headers: billing });
  expect(r.statusCode).toBe(200);
  return (r.json().payments as { linkId: string; attention: { attemptId: string }[]; refunded: number }[]).find(
    (p) => p.linkId === linkId,
  )!;
}

describe('POST /api/admin/payments/attention/:attemptId/void', () => {
  it('voids an unsettled second approval: gateway voided, flag resolved and audited, receipt sent, payment kept', async () => {
    const { link, attemptId, txnId, firstTxnId } = await paidAndFlagged('es');
    expect((await listed(link.linkId)).attention.map((a) => a.attemptId)).toEqual([attemptId]);
    const queue = async () => {
      const q = await env.app.inject({ url: '/api/admin/payments/attention', headers: billing });
      expect(q.statusCode).toBe(200);
      return (q.json().flags as { attemptId: string; linkId: string; amount: number }[]).filter(
        (f) => f.linkId === link.linkId,
      );
    };
    expect(await queue()).toEqual([expect.objectContaining({ attemptId, amount: 500 })]);

    const r = await voidFlag(
      attemptId,
      { reason: 'Second charge from a second tab' },
      { ...billing, 'idempotency-key': 'f1' },
    );
    expect(r.statusCode).toBe(201);
    expect(r.json()).toMatchObject({
      attemptId,
      kind: 'void',
      amount: 500,
      status: 'succeeded',
      originalTransactionId: txnId,
      flaggedAttemptId: attemptId,
    });
    const gw = env.ctx.providers.gateway;
    expect((await gw.queryTransaction(txnId))?.transStatus).toBe('VOID');
    expect((await gw.queryTransaction(firstTxnId))?.transStatus).not.toBe('VOID');

    // Gone from the attention list; the recorded payment is neither refunded nor touched.
    const row = await listed(link.linkId);
    expect(row.attention).toEqual([]);
    expect(await queue()).toEqual([]);
    expect(row.refunded).toBe(0);
    const a = await env.ctx.db.query<{ attention_resolved_at: Date | null }>(
      'select attention_resolved_at from payment_attempt where id = $1',
      [attemptId],
    );
    expect(a.rows[0]!.attention_resolved_at).not.toBeNull();
    const audit = await env.ctx.db.query<{ action: string; details: { attemptId?: string } }>(
      `select action, details from audit_event where link_id = $1 and action like 'payment.flagged_approval%' order by id`,
      [link.linkId],
    );
    expect(audit.rows.map((x) => x.action)).toEqual([
      'payment.flagged_approval_reversal_requested',
      'payment.flagged_approval_voided',
    ]);
    expect(audit.rows[1]!.details.attemptId).toBe(attemptId);
    const mail = await env.ctx.db.query<{ subject: string; body_text: string }>(
      `select subject, body_text from outbox_message where link_id = $1 and kind = 'refund-receipt'`,
      [link.linkId],
    );
    expect(mail.rows).toHaveLength(1);
    expect(mail.rows[0]!.subject).toMatch(/^Su reembolso de /);
    expect(mail.rows[0]!.body_text).not.toContain('second tab');

    // The same key replays the answer; a new key finds the flag resolved; the payment's own refund is still whole.
    const replay = await voidFlag(
      attemptId,
      { reason: 'Second charge from a second tab' },
      { ...billing, 'idempotency-key': 'f1' },
    );
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json().id).toBe(r.json().id);
    const again = await voidFlag(attemptId, { reason: 'again' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('already_resolved');
    const rest = await env.app.inject({
      method: 'POST',
      url: `/api/admin/links/${link.linkId}/refund`,
      headers: billing,
      payload: { reason: 'Surgery cancelled' },
    });
    expect(rest.statusCode).toBe(201);
    expect(rest.json().payment).toMatchObject({ amount: 500, refunded: 500, refundState: 'refunded' });
  });

  it('returns a settled second approval in full', async () => {
    const { link, attemptId, txnId } = await paidAndFlagged();
    await settleSandboxBatch({ db: env.ctx.db, origin: env.gatewayOrigin, txnId });
    const r = await voidFlag(attemptId, { reason: 'Duplicate charge found by reconciliation' });
    expect(r.statusCode).toBe(201);
    expect(r.json()).toMatchObject({ kind: 'return', amount: 500, status: 'succeeded' });
    expect((await listed(link.linkId)).attention).toEqual([]);
  });

  it('10 concurrent requests with different keys reverse the charge once', async () => {
    const { link, attemptId } = await paidAndFlagged();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        voidFlag(attemptId, { reason: 'Race' }, { ...billing, 'idempotency-key': `fr-${i}` }),
      ),
    );
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode === 409)).toHaveLength(9);
    const rows = await env.ctx.db.query(`select 1 from refund where link_id = $1 and status <> 'failed'`, [
      link.linkId,
    ]);
    expect(rows.rowCount).toBe(1);
  });

  it('refuses coordinators (403), a missing reason (400), an unknown or unflagged id (404) and changes nothing', async () => {
    const { link, attemptId } = await paidAndFlagged();
    expect((await voidFlag(attemptId, { reason: 'x' }, coordinator)).statusCode).toBe(403);
    expect((await voidFlag(attemptId, {})).statusCode).toBe(400);
    expect((await voidFlag(attemptId, { reason: 'x', amount: 5 })).statusCode).toBe(400);
    expect((await voidFlag('0'.repeat(24), { reason: 'x' })).statusCode).toBe(404);
    expect((await voidFlag('not-an-id', { reason: 'x' })).statusCode).toBe(400);
    const approved = await env.ctx.db.query<{ id: string }>(
      `select id from payment_attempt where link_id = $1 and status = 'approved'`,
      [link.linkId],
    );
    expect((await voidFlag(approved.rows[0]!.id, { reason: 'x' })).statusCode).toBe(404);
    expect((await listed(link.linkId)).attention).toHaveLength(1);
    const rows = await env.ctx.db.query('select 1 from refund where link_id = $1', [link.linkId]);
    expect(rows.rowCount).toBe(0);
  });
});
