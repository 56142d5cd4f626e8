import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '../../lib/audit.js';
import { newLinkId } from '../../lib/ids.js';
import { settleSandboxBatch } from '../../providers/gateway/sandbox.js';
import { staffToken } from '../../seed/seed-staff.js';
import {
  confirm,
  createLinkAtPaymentStep,
  payWithSandbox,
  requestSessionToken,
  startPaymentTestEnv,
  type PaymentTestEnv,
} from '../../../test/support/payment-fixtures.js';
import { pdfText } from '../../../test/support/signing-fixtures.js';
import { materialisePlan, sealCardToken } from '../plans/index.js';

/**
 * One read model of money movements (issue 41, item 4; decision 0243): for one period, the Payments screen's total,
 * its CSV, the bookkeeping payments CSV and the funnel's "collected" add up to the same net, with a deposit refunded
 * in part, a plan's deposit and instalments charged at the sandbox gateway, and one instalment voided. Before it the
 * screen and the bookkeeping CSV left every instalment out.
 */
let env: PaymentTestEnv;
let billing: Record<string, string>;
let admin: Record<string, string>;
beforeAll(async () => {
  env = await startPaymentTestEnv({ PRACTICE_TIME_ZONE: 'America/Chicago' });
  admin = { authorization: `Bearer ${await staffToken(env.ctx.db, { email: 'mm-admin@example.com', role: 'admin' })}` };
  billing = {
    authorization: `Bearer ${await staffToken(env.ctx.db, { email: 'mm-billing@example.com', role: 'billing' })}`,
  };
});
afterAll(async () => env?.close());

const db = () => env.ctx.db;
const get = (url: string) => env.app.inject({ method: 'GET', url, headers: billing });
const post = (url: string, payload: object) =>
  env.app.inject({ method: 'POST', url, headers: { ...billing, 'idempotency-key': newLinkId() }, payload });

/** A $500 deposit paid at the sandbox on a link without a plan. */
async function paidDeposit() {
  const link = await createLinkAtPaymentStep(env.ctx, { amountDollars: 500 });
  const t = await requestSessionToken(env, link);
  const { pay } = await payWithSandbox(env.gatewayOrigin, {
    sessionToken: t.body,
    card: '4000000000000002',
    amountCents: link.amountCents,
  });
  expect((await confirm(env, link, pay!.ssl_txn_id!)).statusCode).toBe(200);
  return { linkId: link.linkId, txnId: pay!.ssl_txn_id! };
}

/** A plan link: $200 deposit recorded, card stored at the sandbox, $300 left in 2 monthly instalments of $150. */
async function planLink() {
  const r = await env.app.inject({
    method: 'POST',
    url: '/api/admin/links',
    headers: admin,
    payload: {
      firstName: 'Ana',
      lastName: 'Plan',
      phone: '512-555-0147',
      plan: { total: 500, kind: 'installments', count: 2, every: 'month', firstDueOn: '2096-03-10' },
    },
  });
  expect(r.statusCode, r.body).toBe(201);
  const linkId = r.json().id as string;
  await db().query(
    `insert into payment (link_id, payment_type_id, payment_source_id, amount_cents, status, transaction_id, paid_at,
                          card_brand, card_last4)
     values ($1, 1, 1, 20000, 'approved', $2, now(), 'visa', '0002')`,
    [linkId, `dep${linkId.replace(/[-_]/g, '')}`.slice(0, 30)],
  );
  await db().transaction((tx) => materialisePlan({ tx, actor: SYSTEM_ACTOR, linkId, paidCents: 20_000 }));
  const gateway = env.ctx.providers.gateway;
  const sessionToken = await gateway.createSessionToken({
    amountCents: 20000,
    merchantTxnId: newLinkId().replace(/[-_]/g, 'x'),
    firstName: 'Ana',
    lastName: 'Plan',
    storeCard: true,
  });
  const { pay } = await payWithSandbox(env.gatewayOrigin, {
    sessionToken,
    card: '4000000000000002',
    amountCents: 20000,
  });
  const token = (await gateway.queryTransaction(pay!.ssl_txn_id!))!.cardToken!;
  const sealed = await sealCardToken({ ...env.ctx, q: db() }, token);
  await db().query(`insert into stored_card (link_id, token_sealed, brand, last4) values ($1, $2, 'visa', '0002')`, [
    linkId,
    sealed,
  ]);
  return linkId;
}

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const cents = (usd: string) => Math.round(Number(usd) * 100);

function csvSum(csv: string, column: string): { rows: string[][]; cents: number } {
  const [header, ...lines] = csv.trim().split('\r\n');
  const cols = header!.split(',');
  const at = cols.indexOf(column);
  expect(at, `${column} in ${header}`).toBeGreaterThanOrEqual(0);
  // No field of these rows holds a comma or a quote (names, ids, amounts, ISO times).
  const rows = lines.map((l) => l.split(','));
  return { rows, cents: rows.reduce((n, r) => n + cents(r[at]!), 0) };
}

describe('money movements: one read model behind the screen, its totals, the CSVs and the funnel', () => {
  it('for one period the screen total, the CSVs and the funnel collected are the same net', async () => {
    const deposit = await paidDeposit();
    await settleSandboxBatch({ db: db(), origin: env.gatewayOrigin, txnId: deposit.txnId });
    const part = await post(`/api/admin/links/${deposit.linkId}/refund`, { amount: 100, reason: 'Partial' });
    expect(part.statusCode, part.body).toBe(201);

    const plan = await planLink();
    for (const n of [1, 2]) {
      const charged = await post(`/api/admin/links/${plan}/plan/installments/${n}/charge`, {});
      expect(charged.json().outcome, charged.body).toBe('paid');
    }
    const voided = await post(`/api/admin/links/${plan}/plan/installments/1/refund`, { reason: 'Overcharge' });
    expect(voided.statusCode, voided.body).toBe(201);

    // Kept: 500 − 100 (deposit) + 200 (plan deposit) + 150 − 150 (voided instalment) + 150 = 750.00.
    const window = `from=${day(-2)}&to=${day(2)}`;
    const report = await get(`/api/admin/payments/report?${window}`);
    expect(report.statusCode, report.body).toBe(200);
    const r = report.json();
    expect(r.rows.map((x: { kind: string }) => x.kind).sort()).toEqual([
      'deposit',
      'deposit',
      'installment',
      'installment',
    ]);
    expect(r.sum).toMatchObject({ approvedCount: 4, approvedAmount: 1000, refundedAmount: 250, netAmount: 750 });
    expect(r.totals.reduce((n: number, p: { netAmount: number }) => n + cents(String(p.netAmount)), 0)).toBe(75_000);
    const instalment = r.rows.find((x: { installment: { n: number } | null }) => x.installment?.n === 1);
    expect(instalment).toMatchObject({
      kind: 'installment',
      amount: 150,
      refunded: 150,
      net: 0,
      refundState: 'refunded',
      installment: { n: 1, count: 2, status: 'refunded' },
      cardLast4: '0002',
    });

    const csv = await get(`/api/admin/payments/export?${window}`);
    expect(csv.statusCode).toBe(200);
    const screenCsv = csvSum(csv.body, 'net_usd');
    expect(screenCsv.rows).toHaveLength(r.rows.length);
    expect(screenCsv.cents).toBe(75_000);

    const books = await get(`/api/admin/exports/payments.csv?${window}`);
    expect(books.statusCode, books.body).toBe(200);
    const booksCsv = csvSum(books.body, 'net');
    expect(booksCsv.rows).toHaveLength(4);
    expect(booksCsv.cents).toBe(75_000);

    const funnel = await get(`/api/admin/funnel?${window}`);
    expect(funnel.statusCode, funnel.body).toBe(200);
    expect(funnel.json().collected).toEqual({ count: 3, amount: 750 });
    // The plans' part: the instalments kept (the voided one is not collected).
    expect(funnel.json().planMoney.collected).toEqual({ count: 1, amount: 150 });

    // The link page's money card: deposit and instalments, and each refund names its instalment.
    const refunds = await get(`/api/admin/links/${plan}/refunds`);
    expect(refunds.statusCode, refunds.body).toBe(200);
    expect(refunds.json().money).toEqual({ paid: 500, refunded: 150, net: 350 });
    expect(refunds.json().refunds).toMatchObject([
      { kind: 'void', amount: 150, status: 'succeeded', installment: { n: 1, count: 2 } },
    ]);
    const depositRefunds = (await get(`/api/admin/links/${deposit.linkId}/refunds`)).json();
    expect(depositRefunds.money).toEqual({ paid: 500, refunded: 100, net: 400 });
    expect(depositRefunds.refunds[0]).toMatchObject({ kind: 'return', amount: 100, installment: null });

    // The evidence pack's money section: the void names its instalment; deposit and instalments add up.
    for (const [lang, words] of [
      [
        'en',
        /Void of \$150\.00 on .+ · installment 1 of 2.*\$500\.00 USD charged, \$150\.00 USD refunded, \$350\.00 USD kept/,
      ],
      [
        'es',
        /Anulación de \$150\.00 el .+ · cuota 1 de 2.*\$500\.00 USD cobrados, \$150\.00 USD reembolsados, \$350\.00 USD retenidos/,
      ],
    ] as const) {
      const pack = await env.app.inject({
        method: 'GET',
        url: `/api/admin/links/${plan}/evidence.pdf?lang=${lang}`,
        headers: billing,
      });
      expect(pack.statusCode, pack.body.slice(0, 300)).toBe(200);
      expect((await pdfText(pack.rawPayload)).join('\n').replace(/\s+/g, ' ')).toMatch(words);
    }
  });
});
