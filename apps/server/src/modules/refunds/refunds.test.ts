import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffToken } from '../../seed/seed-staff.js';
import { settleSandboxBatch } from '../../providers/gateway/sandbox.js';
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
 * Refunds and voids through the admin API against the sandbox gateway over real HTTP: the gateway decides void vs
 * return by settlement; amounts never exceed the payment, also under concurrency; Idempotency-Key replays.
 */
let env: PaymentTestEnv;
let admin: Record<string, string>;
let coordinator: Record<string, string>;
let billing: Record<string, string>;
beforeAll(async () => {
  env = await startPaymentTestEnv();
  admin = { authorization: `Bearer ${await staffToken(env.ctx.db, { email: 'admin@example.com', role: 'admin' })}` };
  billing = {
    authorization: `Bearer ${await staffToken(env.ctx.db, { email: 'billing@example.com', role: 'billing' })}`,
  };
  coordinator = {
    authorization: `Bearer ${await staffToken(env.ctx.db, { email: 'coord@example.com', role: 'coordinator' })}`,
  };
});
afterAll(async () => env?.close());

const db = () => env.ctx.db;

async function paidLink(amountDollars = 500, opts: Parameters<typeof createLinkAtPaymentStep>[1] = {}) {
  const link = await createLinkAtPaymentStep(env.ctx, { amountDollars, ...opts });
  const t = await requestSessionToken(env, link);
  expect(t.statusCode).toBe(200);
  const { pay } = await payWithSandbox(env.gatewayOrigin, {
    sessionToken: t.body,
    card: '4000000000000002',
    amountCents: link.amountCents,
  });
  expect(pay?.ssl_result).toBe('0');
  expect((await confirm(env, link, pay!.ssl_txn_id!)).statusCode).toBe(200);
  return { link, txnId: pay!.ssl_txn_id! };
}

const settle = (txnId: string) => settleSandboxBatch({ db: db(), origin: env.gatewayOrigin, txnId });

const refund = (link: TestLink, body: object, headers: Record<string, string> = {}) =>
  env.app.inject({
    method: 'POST',
    url: `/api/admin/links/${link.linkId}/refund`,
    headers: { ...admin, ...headers },
    payload: body,
  });

async function paymentOf(link: TestLink) {
  const r = await env.app.inject({ method: 'GET', url: `/api/admin/links/${link.linkId}`, headers: admin });
  return r.json().payment as { amount: number; refunded: number; refundState: string };
}

describe('POST /api/admin/links/:id/refund', () => {
  it('a refund of 1e-9 dollars (rounds to 0 cents) is a 400 that changes nothing (issue 26)', async () => {
    const { link, txnId } = await paidLink(500);
    await settle(txnId);
    for (const amount of [1e-9, 0.001, 0.004]) {
      const r = await refund(link, { amount, reason: 'Tiny amount' });
      expect(r.statusCode, r.body).toBe(400);
      expect(r.json().fields?.amount).toBeTruthy();
    }
    expect(await paymentOf(link)).toMatchObject({ refunded: 0 });
  });

  it('voids an unsettled payment in full: the gateway shows it voided, the payment refunded, the patient gets a receipt', async () => {
    const { link, txnId } = await paidLink(500, { language: 'es' });
    const r = await refund(link, { reason: 'Surgery cancelled for medical reasons' });
    expect(r.statusCode).toBe(201);
    const body = r.json();
    expect(body).toMatchObject({
      kind: 'void',
      amount: 500,
      status: 'succeeded',
      originalTransactionId: txnId,
      payment: { amount: 500, refunded: 500, remaining: 0, refundState: 'refunded' },
    });
    expect(body.transactionId).toBeTruthy();
    expect((await env.ctx.providers.gateway.queryTransaction(txnId))?.transStatus).toBe('VOID');
    expect(await paymentOf(link)).toMatchObject({ refunded: 500, refundState: 'refunded' });

    const mail = await db().query<{ channel: string; subject: string; body_text: string; to_address: string }>(
      `select channel, subject, body_text, to_address from outbox_message where link_id = $1 and kind = 'refund-receipt'`,
      [link.linkId],
    );
    expect(mail.rows).toHaveLength(1);
    expect(mail.rows[0]!.subject).toMatch(/^Su reembolso de /);
    expect(mail.rows[0]!.body_text).toContain('$500.00');
    expect(mail.rows[0]!.body_text).not.toContain('medical');

    const detail = await env.app.inject({ method: 'GET', url: `/api/admin/links/${link.linkId}`, headers: admin });
    const actions = (detail.json().timeline as { action: string }[]).map((e) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining(['payment.refund_requested', 'payment.voided', 'payment.refund_receipt_queued']),
    );
    // Nothing left: another refund is refused.
    const again = await refund(link, { reason: 'again' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('fully_refunded');
  });

  it('refuses a partial refund before settlement (a void is all or nothing) and changes nothing', async () => {
    const { link } = await paidLink(500);
    const r = await refund(link, { amount: 100, reason: 'Partial' });
    expect(r.statusCode).toBe(409);
    expect(r.json().error).toBe('partial_refund_before_settlement');
    expect(await paymentOf(link)).toMatchObject({ refunded: 0, refundState: 'none' });
    const rows = await db().query('select 1 from refund where link_id = $1', [link.linkId]);
    expect(rows.rowCount).toBe(0);
  });

  it('tells before any refund whether the payment can only be voided in full today (issue 29, item 4)', async () => {
    const { link, txnId } = await paidLink(500);
    const options = () => env.app.inject({ url: `/api/admin/links/${link.linkId}/refund-options`, headers: billing });
    const before = await options();
    expect(before.statusCode, before.body).toBe(200);
    expect(before.json()).toEqual({ settled: false, voidOnly: true });
    await settle(txnId);
    expect((await options()).json()).toEqual({ settled: true, voidOnly: false });
    expect(
      (await env.app.inject({ url: `/api/admin/links/${link.linkId}/refund-options`, headers: coordinator }))
        .statusCode,
    ).toBe(403);
    const unpaid = await createLinkAtPaymentStep(env.ctx, { amountDollars: 500 });
    const r = await env.app.inject({ url: `/api/admin/links/${unpaid.linkId}/refund-options`, headers: billing });
    expect(r.statusCode).toBe(409);
    expect(r.json().error).toBe('not_paid');
    const reads = await db().query(
      `select 1 from audit_event where link_id = $1 and action = 'admin.refund_options_viewed' and actor_type = 'staff'`,
      [link.linkId],
    );
    expect(reads.rowCount).toBe(2);
  });

  it('after settlement: partial returns up to the total, then more than the rest is refused', async () => {
    const { link, txnId } = await paidLink(500);
    await settle(txnId);
    const a = await refund(link, { amount: 120.5, reason: 'Duplicate item' });
    expect(a.statusCode).toBe(201);
    expect(a.json()).toMatchObject({
      kind: 'return',
      amount: 120.5,
      payment: { refunded: 120.5, remaining: 379.5, refundState: 'partially_refunded' },
    });
    expect(await paymentOf(link)).toMatchObject({ refunded: 120.5, refundState: 'partially_refunded' });

    const over = await refund(link, { amount: 379.51, reason: 'Too much' });
    expect(over.statusCode).toBe(409);
    expect(over.json()).toMatchObject({ error: 'refund_exceeds_payment' });
    expect(over.json().message).toContain('$379.50');

    const rest = await refund(link, { reason: 'The rest' });
    expect(rest.statusCode).toBe(201);
    expect(rest.json()).toMatchObject({
      kind: 'return',
      amount: 379.5,
      payment: { refunded: 500, refundState: 'refunded' },
    });
    const sum = await db().query<{ refunded_cents: number; amount_cents: number }>(
      'select refunded_cents, amount_cents from payment where link_id = $1',
      [link.linkId],
    );
    expect(sum.rows[0]).toEqual({ refunded_cents: 50000, amount_cents: 50000 });
  });

  it('refuses bad input with 400, unpaid links with 409, unknown links with 404, coordinators with 403', async () => {
    const { link } = await paidLink(500);
    for (const body of [
      {},
      { reason: '' },
      { amount: -1, reason: 'x' },
      { amount: 1.005, reason: 'x' },
      { amount: '5', reason: 'x' },
    ]) {
      const r = await refund(link, body);
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
    }
    const unpaid = await createLinkAtPaymentStep(env.ctx);
    expect((await refund(unpaid, { reason: 'x' })).json().error).toBe('not_paid');
    const missing = await env.app.inject({
      method: 'POST',
      url: '/api/admin/links/AAAAAAAAAAAAAAAAAAAAAAAA/refund',
      headers: admin,
      payload: { reason: 'x' },
    });
    expect(missing.statusCode).toBe(404);
    const coord = await refund(link, { reason: 'x' }, coordinator);
    expect(coord.statusCode).toBe(403);
    const byBilling = await refund(link, { reason: 'Billing office' }, billing);
    expect(byBilling.statusCode).toBe(201);
    expect(
      (
        await env.app.inject({
          method: 'POST',
          url: `/api/admin/links/${link.linkId}/refund`,
          payload: { reason: 'x' },
        })
      ).statusCode,
    ).toBe(401);
    expect(await paymentOf(link)).toMatchObject({ refunded: 500 });
  });

  it('Idempotency-Key: the same key answers the same refund again; a different body with it is refused 422', async () => {
    const { link, txnId } = await paidLink(300);
    await settle(txnId);
    const first = await refund(link, { amount: 50, reason: 'Goodwill' }, { 'idempotency-key': 'key-one' });
    expect(first.statusCode).toBe(201);
    const second = await refund(link, { amount: 50, reason: 'Goodwill' }, { 'idempotency-key': 'key-one' });
    expect(second.statusCode).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json()).toEqual(first.json());
    const other = await refund(link, { amount: 60, reason: 'Goodwill' }, { 'idempotency-key': 'key-one' });
    expect(other.statusCode).toBe(422);
    expect(await paymentOf(link)).toMatchObject({ refunded: 50 });
  });

  it('20 concurrent requests with one key give back the money once, and all get the same answer', async () => {
    const { link, txnId } = await paidLink(500);
    await settle(txnId);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        refund(link, { amount: 100, reason: 'Once' }, { 'idempotency-key': 'same-key-20' }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(201));
    expect(new Set(answers.map((a) => a.json().id)).size).toBe(1);
    const rows = await db().query('select 1 from refund where link_id = $1', [link.linkId]);
    expect(rows.rowCount).toBe(1);
    expect(await paymentOf(link)).toMatchObject({ refunded: 100 });
  });

  it('20 concurrent full refunds with different keys: exactly one succeeds, the others are refused', async () => {
    const { link, txnId } = await paidLink(500);
    await settle(txnId);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => refund(link, { reason: 'Race' }, { 'idempotency-key': `race-${i}` })),
    );
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(19);
    for (const a of answers.filter((x) => x.statusCode === 409)) {
      expect(a.json().error).toMatch(/^(fully_refunded|refund_exceeds_payment)$/);
    }
    const rows = await db().query<{ sum: number }>(
      `select coalesce(sum(amount_cents), 0)::int as sum from refund where link_id = $1 and status = 'succeeded'`,
      [link.linkId],
    );
    expect(rows.rows[0]!.sum).toBe(50000);
    expect(await paymentOf(link)).toMatchObject({ refunded: 500, refundState: 'refunded' });
  });

  it('the same for a void: 20 concurrent void requests with different keys void once', async () => {
    const { link } = await paidLink(400);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => refund(link, { reason: 'Race' }, { 'idempotency-key': `void-${i}` })),
    );
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(1);
    const rows = await db().query<{ kind: string }>('select kind from refund where link_id = $1', [link.linkId]);
    expect(rows.rows).toEqual([{ kind: 'void' }]);
  });

  it('lists a link’s refunds', async () => {
    const { link, txnId } = await paidLink(500);
    await settle(txnId);
    await refund(link, { amount: 10, reason: 'a' });
    await refund(link, { amount: 20, reason: 'b' });
    const r = await env.app.inject({ method: 'GET', url: `/api/admin/links/${link.linkId}/refunds`, headers: admin });
    expect(r.statusCode).toBe(200);
    expect(r.json().refunds.map((x: { amount: number; reason: string }) => [x.amount, x.reason])).toEqual([
      [10, 'a'],
      [20, 'b'],
    ]);
  });
});

describe('CSV exports', () => {
  const today = new Date().toISOString().slice(0, 10);
  const get = (url: string, headers = admin) => env.app.inject({ method: 'GET', url, headers });
  const parse = (csv: string) =>
    csv
      .trimEnd()
      .split('\r\n')
      .map((l) => l.split(','));

  it('payments, refunds and links by date range, with refunds reflected; bad ranges 400; coordinators 403', async () => {
    const { link, txnId } = await paidLink(200);
    await settle(txnId);
    expect((await refund(link, { amount: 50, reason: 'Export check, with "quotes"' })).statusCode).toBe(201);

    const p = await get(`/api/admin/exports/payments.csv?from=${today}&to=${today}`);
    expect(p.statusCode).toBe(200);
    expect(p.headers['content-type']).toMatch(/^text\/csv/);
    const rows = parse(p.body);
    expect(rows[0]).toContain('refund_state');
    // A link id may start with '-': the CSV writer then guards the cell against formula injection with an apostrophe.
    const idCell = /^[=+\-@]/.test(link.linkId) ? `'${link.linkId}` : link.linkId;
    const mine = rows.find((r) => r.includes(idCell))!;
    expect(mine).toEqual(expect.arrayContaining(['200.00', '50.00', '150.00', 'partially_refunded', txnId]));

    const r = await get(`/api/admin/exports/refunds.csv?from=${today}&to=${today}`);
    expect(r.body).toContain('"Export check, with ""quotes"""');
    expect(r.body).toContain(`${link.linkId},return,50.00,succeeded`);

    const l = await get(`/api/admin/exports/links.csv?from=${today}&to=${today}`);
    expect(l.body).toContain(link.linkId);

    const before = await get(`/api/admin/exports/payments.csv?from=2000-01-01&to=2000-01-31`);
    expect(parse(before.body)).toHaveLength(1);
    expect((await get(`/api/admin/exports/payments.csv?from=${today}&to=2000-01-01`)).statusCode).toBe(400);
    expect((await get(`/api/admin/exports/payments.csv?from=yesterday&to=${today}`)).statusCode).toBe(400);
    expect((await get(`/api/admin/exports/links.csv?from=${today}&to=${today}`, coordinator)).statusCode).toBe(403);
  });

  it('neutralises spreadsheet formulas in cells', async () => {
    const { toCsv } = await import('../../lib/csv.js');
    expect(toCsv(['a', 'b', 'c'], [['=HYPERLINK("x")', '-12.50', '@SUM(1)']])).toBe(
      'a,b,c\r\n"\'=HYPERLINK(""x"")",-12.50,\'@SUM(1)\r\n',
    );
  });
});
