import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshotLinkData } from '../../../test/support/links.js';
import {
  confirm,
  createLinkAtPaymentStep,
  payWithSandbox,
  requestSessionToken,
  startPaymentTestEnv,
  type PaymentTestEnv,
  type TestLink,
} from '../../../test/support/payment-fixtures.js';
import { newAttemptId } from './payment-queries.js';

let env: PaymentTestEnv;
beforeAll(async () => {
  env = await startPaymentTestEnv();
});
afterAll(async () => env?.close());

const db = () => env.ctx.db;

async function approvedPayment(link: TestLink, card = '4000000000000002') {
  const t = await requestSessionToken(env, link);
  expect(t.statusCode).toBe(200);
  const { pay } = await payWithSandbox(env.gatewayOrigin, {
    sessionToken: t.body,
    card,
    amountCents: link.amountCents,
  });
  expect(pay?.ssl_result).toBe('0');
  return pay!;
}

async function auditActions(linkId: string): Promise<string[]> {
  const r = await db().query<{ action: string }>('select action from audit_event where link_id = $1 order by id', [
    linkId,
  ]);
  return r.rows.map((x) => x.action);
}

async function outboxFor(linkId: string) {
  const r = await db().query<{ to_address: string; subject: string; body_text: string; body_html: string }>(
    `select to_address, subject, body_text, body_html from outbox_message where link_id = $1 and kind = 'receipt'`,
    [linkId],
  );
  return r.rows;
}

describe('POST /api/converge?amount=', () => {
  it('answers a text/plain session token bound to a new payment attempt for the recorded amount', async () => {
    const link = await createLinkAtPaymentStep(env.ctx, { amountDollars: 750 });
    const r = await requestSessionToken(env, link, '750.00');
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/plain/);
    expect(r.body.length).toBeGreaterThan(20);
    const a = await db().query<{ amount_cents: number; status: string; session_token: string }>(
      'select amount_cents, status, session_token from payment_attempt where link_id = $1',
      [link.linkId],
    );
    expect(a.rows).toEqual([{ amount_cents: 75000, status: 'open', session_token: r.body }]);
    const s = await db().query<{ amount_cents: number; merchant_txn_id: string }>(
      'select amount_cents, merchant_txn_id from sandbox_gateway_session where token = $1',
      [r.body],
    );
    expect(s.rows[0]!.amount_cents).toBe(75000);
    expect(await auditActions(link.linkId)).toEqual(
      expect.arrayContaining(['payment.session_requested', 'payment.session_issued']),
    );
  });

  it('refuses 409 when the amount differs from the one recorded for the link, and changes nothing', async () => {
    const link = await createLinkAtPaymentStep(env.ctx, { amountDollars: 500 });
    const before = await snapshotLinkData(db());
    for (const amount of ['499', '500.01', '5000']) {
      const r = await requestSessionToken(env, link, amount);
      expect(r.statusCode).toBe(409);
      expect(r.json()).toMatchObject({ error: 'amount_mismatch' });
    }
    expect(await snapshotLinkData(db())).toBe(before);
    const a = await db().query('select 1 from payment_attempt where link_id = $1', [link.linkId]);
    expect(a.rowCount).toBe(0);
  });

  it('refuses a payor-paid link until the payor signed the payment authorization', async () => {
    const link = await createLinkAtPaymentStep(env.ctx, { source: 2, authorizationSigned: false });
    const r = await requestSessionToken(env, link);
    expect(r.statusCode).toBe(409);
    expect(r.json()).toMatchObject({ error: 'authorization_not_signed' });
    const signed = await createLinkAtPaymentStep(env.ctx, { source: 2 });
    expect((await requestSessionToken(env, signed)).statusCode).toBe(200);
  });

  it('refuses new tokens with 429 after too many attempts in an hour (card-testing brake)', async () => {
    const link = await createLinkAtPaymentStep(env.ctx);
    const payment = await db().query<{ id: number }>('select id from payment where link_id = $1', [link.linkId]);
    for (let i = 0; i < env.ctx.config.PAYMENT_MAX_ATTEMPTS_PER_HOUR; i++) {
      await db().query(
        `insert into payment_attempt (id, link_id, payment_id, amount_cents, gateway, status)
         values ($1, $2, $3, 50000, 'sandbox', 'closed')`,
        [newAttemptId(), link.linkId, payment.rows[0]!.id],
      );
    }
    const r = await requestSessionToken(env, link);
    expect(r.statusCode).toBe(429);
    expect(r.json()).toMatchObject({ error: 'too_many_payment_attempts' });
  });

  it('refuses malformed amounts with 400 and requests without a session with 401', async () => {
    const link = await createLinkAtPaymentStep(env.ctx);
    const bad = await requestSessionToken(env, link, 'five');
    expect(bad.statusCode).toBe(400);
    const anon = await env.app.inject({
      method: 'POST',
      url: '/api/converge?amount=500',
      headers: { 'x-api-key': env.ctx.config.apiKey },
    });
    expect(anon.statusCode).toBe(401);
  });

  it('shares one live token between submits, and issues a new one after a decline is logged', async () => {
    const link = await createLinkAtPaymentStep(env.ctx);
    const first = await requestSessionToken(env, link);
    const second = await requestSessionToken(env, link);
    expect(second.body).toBe(first.body);
    const { pay } = await payWithSandbox(env.gatewayOrigin, {
      sessionToken: first.body,
      card: '4000000000000085',
      amountCents: link.amountCents,
    });
    expect(pay).toMatchObject({ ssl_result: '1', ssl_result_message: 'DECLINED' });
    const log = await env.app.inject({
      method: 'POST',
      url: `/api/linkpaymenthistory/${link.linkId}/log`,
      headers: link.headers,
      payload: { linkStepId: link.paymentStepId, payload: JSON.stringify({ kind: 'declined', ...pay }) },
    });
    expect(log.statusCode).toBe(201);
    const third = await requestSessionToken(env, link);
    expect(third.statusCode).toBe(200);
    expect(third.body).not.toBe(first.body);
  });

  it("answers 401 'Process has completed.' after the payment", async () => {
    const link = await createLinkAtPaymentStep(env.ctx);
    const pay = await approvedPayment(link);
    expect((await confirm(env, link, pay.ssl_txn_id!)).statusCode).toBe(200);
    const r = await requestSessionToken(env, link);
    expect(r.statusCode).toBe(401);
    expect(r.body).toBe('Process has completed.');
  });
});

describe('PUT /api/linkpaymenthistory', () => {
  it('records a verified approval, completes the payment and confirmation steps and the link, and queues the receipt', async () => {
    const link = await createLinkAtPaymentStep(env.ctx, { amountDollars: 600 });
    const pay = await approvedPayment(link);
    const r = await confirm(env, link, pay.ssl_txn_id!);
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(body).toMatchObject({
      linkId: link.linkId,
      transactionId: pay.ssl_txn_id,
      approvalCode: pay.ssl_approval_code,
      amount: 600,
      cardBrand: 'visa',
      cardLast4: '0002',
    });
    expect(body.approvalCode).toMatch(/^[A-Z0-9]{6}$/);

    const p = await db().query<Record<string, unknown>>('select * from payment where link_id = $1', [link.linkId]);
    expect(p.rows[0]).toMatchObject({
      status: 'approved',
      transaction_id: pay.ssl_txn_id,
      card_brand: 'visa',
      card_last4: '0002',
      payor_full_name: 'Ana Garcia',
    });
    const steps = await db().query<{ route_path: string; status_id: number }>(
      'select route_path, status_id from link_step where link_id = $1 order by position',
      [link.linkId],
    );
    expect(steps.rows.every((s) => s.status_id === 4)).toBe(true);
    const l = await db().query<{ status: string; completed_at: Date | null }>(
      'select status, completed_at from link where id = $1',
      [link.linkId],
    );
    expect(l.rows[0]!.status).toBe('completed');
    expect(l.rows[0]!.completed_at).not.toBeNull();
    const mail = await outboxFor(link.linkId);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.to_address).toBe('ana@example.com');
    expect(await auditActions(link.linkId)).toEqual(
      expect.arrayContaining(['payment.approved', 'step.completed', 'link.completed', 'payment.receipt_queued']),
    );
  });

  it('refuses a forged transaction id (unknown to the gateway) and changes nothing', async () => {
    const link = await createLinkAtPaymentStep(env.ctx);
    await requestSessionToken(env, link);
    const before = await snapshotLinkData(db());
    const r = await confirm(env, link, '221126A15-00000000-0000-0000-0000-000000000000');
    expect(r.statusCode).toBe(409);
    expect(r.json()).toMatchObject({ error: 'payment_not_verified' });
    expect(await snapshotLinkData(db())).toBe(before);
  });

  it('refuses a declined transaction and another link’s approval', async () => {
    const a = await createLinkAtPaymentStep(env.ctx);
    const t = await requestSessionToken(env, a);
    const { pay: declined } = await payWithSandbox(env.gatewayOrigin, {
      sessionToken: t.body,
      card: '4000000000000051',
      amountCents: a.amountCents,
    });
    expect(declined?.ssl_result).toBe('1');
    const r1 = await confirm(env, a, declined!.ssl_txn_id!);
    expect(r1.statusCode).toBe(409);
    expect(r1.json()).toMatchObject({ error: 'payment_not_approved' });

    // B's genuine approval, reported on A's link by A's session: not A's attempt.
    const b = await createLinkAtPaymentStep(env.ctx);
    const payB = await approvedPayment(b);
    const before = await snapshotLinkData(db());
    const r2 = await confirm(env, a, payB.ssl_txn_id!);
    expect(r2.statusCode).toBe(409);
    expect(r2.json()).toMatchObject({ error: 'payment_not_verified' });
    expect(await snapshotLinkData(db())).toBe(before);
    // And A's session cannot report on B's link at all.
    const r3 = await env.app.inject({
      method: 'PUT',
      url: '/api/linkpaymenthistory',
      headers: a.headers,
      payload: { linkId: b.linkId, transactionId: payB.ssl_txn_id },
    });
    expect(r3.statusCode).toBe(403);
  });

  it('refuses an approval whose amount differs from the recorded one', async () => {
    const link = await createLinkAtPaymentStep(env.ctx, { amountDollars: 500 });
    const pay = await approvedPayment(link);
    // The gateway says $500; pretend the gateway charged another amount by changing what it recorded.
    await db().query('update sandbox_gateway_transaction set amount_cents = 50100 where txn_id = $1', [pay.ssl_txn_id]);
    const r = await confirm(env, link, pay.ssl_txn_id!);
    expect(r.statusCode).toBe(409);
    expect(r.json()).toMatchObject({ error: 'payment_mismatch' });
    const p = await db().query<{ status: string }>('select status from payment where link_id = $1', [link.linkId]);
    expect(p.rows[0]!.status).toBe('chosen');
  });

  it('records the same approval reported twice once, with the same answer', async () => {
    const link = await createLinkAtPaymentStep(env.ctx);
    const pay = await approvedPayment(link);
    const r1 = await confirm(env, link, pay.ssl_txn_id!);
    const r2 = await confirm(env, link, pay.ssl_txn_id!);
    expect(r1.statusCode).toBe(200);
    expect(r2.statusCode).toBe(200);
    expect(r2.json()).toEqual(r1.json());
    expect(await outboxFor(link.linkId)).toHaveLength(1);
    const approved = (await auditActions(link.linkId)).filter((a) => a === 'payment.approved');
    expect(approved).toHaveLength(1);
  });

  it('50 concurrent PUTs of one approval record one payment and queue one receipt', async () => {
    const link = await createLinkAtPaymentStep(env.ctx);
    const pay = await approvedPayment(link);
    const answers = await Promise.all(Array.from({ length: 50 }, () => confirm(env, link, pay.ssl_txn_id!)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(50).fill(200));
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expect(await outboxFor(link.linkId)).toHaveLength(1);
    const p = await db().query('select 1 from payment where link_id = $1 and status = $2', [link.linkId, 'approved']);
    expect(p.rowCount).toBe(1);
  });

  it('50 concurrent submits (token, pay, confirm) end with exactly one charge', async () => {
    const link = await createLinkAtPaymentStep(env.ctx);
    const tokens = await Promise.all(Array.from({ length: 50 }, () => requestSessionToken(env, link)));
    expect(tokens.every((t) => t.statusCode === 200)).toBe(true);
    const pays = await Promise.all(
      tokens.map((t) =>
        payWithSandbox(env.gatewayOrigin, { sessionToken: t.body, card: '4000000000000002', amountCents: 50000 }),
      ),
    );
    const approvals = pays.filter((p) => p.pay?.ssl_result === '0');
    expect(approvals).toHaveLength(1);
    const confirms = await Promise.all(pays.map((p) => confirm(env, link, p.pay?.ssl_txn_id ?? 'none-at-all')));
    expect(confirms.filter((c) => c.statusCode === 200)).toHaveLength(1);
    const charges = await db().query<{ n: number }>(
      `select count(*)::int as n from sandbox_gateway_transaction t join payment_attempt a on a.id = t.merchant_txn_id
       where a.link_id = $1 and t.result = '0'`,
      [link.linkId],
    );
    expect(charges.rows[0]!.n).toBe(1);
    expect(await outboxFor(link.linkId)).toHaveLength(1);
  });

  it('a second, different approval after completion is refused with the completed text and audited', async () => {
    const link = await createLinkAtPaymentStep(env.ctx);
    const pay = await approvedPayment(link);
    expect((await confirm(env, link, pay.ssl_txn_id!)).statusCode).toBe(200);
    const other = await createLinkAtPaymentStep(env.ctx);
    const otherPay = await approvedPayment(other);
    const r = await confirm(env, link, otherPay.ssl_txn_id!);
    expect(r.statusCode).toBe(401);
    expect(r.body).toBe('Process has completed.');
    expect(await auditActions(link.linkId)).toContain('payment.second_payment_refused');
  });
});

describe('receipt e-mail', () => {
  it('English, to the patient: practice, amount, date, card brand + last 4, transaction id, approval code; nothing medical', async () => {
    const link = await createLinkAtPaymentStep(env.ctx, { amountDollars: 1250, language: 'en' });
    const pay = await approvedPayment(link, '5413330089604111');
    await confirm(env, link, pay.ssl_txn_id!);
    const [mail] = await outboxFor(link.linkId);
    expect(mail!.to_address).toBe('ana@example.com');
    expect(mail!.subject).toContain(env.ctx.config.PRACTICE_NAME);
    for (const text of [mail!.body_text, mail!.body_html]) {
      expect(text).toContain('Payment receipt');
      expect(text).toContain('$1,250.00');
      expect(text).toContain('Mastercard ending in 4111');
      expect(text).toContain(pay.ssl_txn_id);
      expect(text).toContain(pay.ssl_approval_code);
      expect(text).not.toContain('Rhinoplasty');
      expect(text).not.toContain('5413330089604111');
    }
    expect(mail!.body_text).toMatch(/Date: [A-Z][a-z]+ \d{1,2}, \d{4}/);
  });

  it('Spanish, to the payor when the payor pays', async () => {
    const link = await createLinkAtPaymentStep(env.ctx, { language: 'es', source: 2 });
    const pay = await approvedPayment(link);
    const r = await confirm(env, link, pay.ssl_txn_id!, { payorFullName: 'Pat Payor', payorEmail: 'pat@example.com' });
    expect(r.statusCode).toBe(200);
    const [mail] = await outboxFor(link.linkId);
    expect(mail!.to_address).toBe('pat@example.com');
    expect(mail!.subject).toContain('Su recibo de pago');
    expect(mail!.body_text).toContain('Recibo de pago');
    expect(mail!.body_text).toContain('Visa terminada en 0002');
    expect(mail!.body_text).toContain('Código de aprobación');
    expect(mail!.body_text).toContain('$500.00');
    expect(mail!.body_text).toMatch(/Fecha: \d{1,2} de [a-z]+ de \d{4}/);
    expect(mail!.body_text).not.toContain('Rhinoplasty');
    const p = await db().query<{ payor_email: string }>('select payor_email from payment where link_id = $1', [
      link.linkId,
    ]);
    expect(p.rows[0]!.payor_email).toBe('pat@example.com');
  });
});

describe('receipts tell the truth (issue 10 item 7)', () => {
  async function allReceipts(linkId: string) {
    const r = await db().query<{ channel: string; to_address: string; body_text: string }>(
      `select channel, to_address, body_text from outbox_message where link_id = $1 and kind = 'receipt'`,
      [linkId],
    );
    return r.rows;
  }

  it('a patient with no e-mail on file gets the receipt by SMS (short, nothing medical), and the answer says so', async () => {
    const link = await createLinkAtPaymentStep(env.ctx, { email: '', amountDollars: 1250 });
    const pay = await approvedPayment(link);
    const r = await confirm(env, link, pay.ssl_txn_id!);
    expect(r.statusCode).toBe(200);
    expect(r.json().receipt).toEqual({ channel: 'sms', to: '***-***-0100' });
    const [sms, ...more] = await allReceipts(link.linkId);
    expect(more).toEqual([]);
    expect(sms!.channel).toBe('sms');
    expect(sms!.to_address).toBe('5125550100');
    expect(sms!.body_text).toContain('$1,250.00');
    expect(sms!.body_text).toContain(pay.ssl_txn_id);
    expect(sms!.body_text).toContain('receipt');
    expect(sms!.body_text).not.toMatch(/Rhinoplasty|Ana|García/);
    // The patient's link too (issue 41): at most two GSM-7 segments.
    expect(sms!.body_text).toMatch(/ https?:\/\/\S+\/auth\?id=\S+$/);
    expect(sms!.body_text.length).toBeLessThanOrEqual(306);
    expect(await auditActions(link.linkId)).toContain('payment.receipt_queued');
    // The same approval reported again gets the same truthful answer.
    expect((await confirm(env, link, pay.ssl_txn_id!)).json().receipt).toEqual({ channel: 'sms', to: '***-***-0100' });
  });

  it('in Spanish', async () => {
    const link = await createLinkAtPaymentStep(env.ctx, { email: '', language: 'es' });
    const pay = await approvedPayment(link);
    await confirm(env, link, pay.ssl_txn_id!);
    const [sms] = await allReceipts(link.linkId);
    expect(sms!.body_text).toContain('recibimos su pago de $500.00');
    expect(sms!.body_text).toContain('Conserve este mensaje como recibo');
  });

  it("the payment page's receipt e-mail wins over the one on file; an emptied field means SMS", async () => {
    const typed = await createLinkAtPaymentStep(env.ctx);
    const pay = await approvedPayment(typed);
    const r = await confirm(env, typed, pay.ssl_txn_id!, { receiptEmail: 'ana.personal@example.org' });
    expect(r.json().receipt).toEqual({ channel: 'email', to: 'a***@example.org' });
    expect((await allReceipts(typed.linkId)).map((m) => [m.channel, m.to_address])).toEqual([
      ['email', 'ana.personal@example.org'],
    ]);

    const emptied = await createLinkAtPaymentStep(env.ctx);
    const pay2 = await approvedPayment(emptied);
    const r2 = await confirm(env, emptied, pay2.ssl_txn_id!, { receiptEmail: '' });
    expect(r2.json().receipt.channel).toBe('sms');
    expect((await allReceipts(emptied.linkId)).map((m) => m.channel)).toEqual(['sms']);

    const bad = await confirm(env, emptied, pay2.ssl_txn_id!, { receiptEmail: 'not an address' });
    expect(bad.statusCode).toBe(400);
  });

  it('the default stays the e-mail on file, and the answer names it', async () => {
    const link = await createLinkAtPaymentStep(env.ctx);
    const pay = await approvedPayment(link);
    const r = await confirm(env, link, pay.ssl_txn_id!);
    expect(r.json().receipt).toEqual({ channel: 'email', to: 'a***@example.com' });
  });

  it('nothing to send to: nothing is promised', async () => {
    // An e-mail sign-in link with no phone, and the patient emptied the receipt e-mail field.
    const link = await createLinkAtPaymentStep(env.ctx);
    await db().query(`update link set phone = '', sign_in_method = 'email' where id = $1`, [link.linkId]);
    const pay = await approvedPayment(link);
    const r = await confirm(env, link, pay.ssl_txn_id!, { receiptEmail: '' });
    expect(r.json().receipt).toEqual({ channel: 'none', to: null });
    expect(await allReceipts(link.linkId)).toEqual([]);
    expect(await auditActions(link.linkId)).toContain('payment.receipt_skipped');
  });
});

describe('the patient hears that the payor paid (issue 16, item 7)', () => {
  const notices = async (linkId: string) =>
    (
      await db().query<{ channel: string; to_address: string; subject: string | null; body_text: string }>(
        `select channel, to_address, subject, body_text from outbox_message where link_id = $1 and kind = 'payor-paid'
         order by channel`,
        [linkId],
      )
    ).rows;

  it('by SMS and e-mail, in Spanish, naming the payor; the SMS without the amount', async () => {
    const link = await createLinkAtPaymentStep(env.ctx, { language: 'es', source: 2 });
    const pay = await approvedPayment(link);
    const r = await confirm(env, link, pay.ssl_txn_id!, { payorFullName: 'Pat Payor', payorEmail: 'pat@example.com' });
    expect(r.statusCode).toBe(200);
    const [email, sms] = await notices(link.linkId);
    expect(sms).toMatchObject({ channel: 'sms', to_address: '5125550100' });
    expect(sms!.body_text).toContain('Hola Ana, Pat Payor ya realizo el pago de su enlace.');
    expect(sms!.body_text).not.toContain('$');
    expect(sms!.body_text.length).toBeLessThanOrEqual(160);
    expect(email).toMatchObject({ channel: 'email', to_address: 'ana@example.com' });
    expect(email!.subject).toContain('su pago fue realizado');
    expect(email!.body_text).toContain('Pat Payor realizó el pago de su enlace');
    expect(email!.body_text).toContain('$500.00');
    expect(email!.body_text).not.toContain('Rhinoplasty');
    expect(await auditActions(link.linkId)).toContain('payment.patient_notified');
  });

  it('in English; no notice when the patient paid, and no second e-mail when the receipt went to the patient', async () => {
    const link = await createLinkAtPaymentStep(env.ctx, { source: 2 });
    const pay = await approvedPayment(link);
    await confirm(env, link, pay.ssl_txn_id!, { payorFullName: 'Pat Payor', payorEmail: 'ANA@example.com' });
    const sent = await notices(link.linkId);
    expect(sent.map((m) => m.channel)).toEqual(['sms']);
    expect(sent[0]!.body_text).toContain('Hello Ana, Pat Payor has paid for your link.');

    const own = await createLinkAtPaymentStep(env.ctx);
    const ownPay = await approvedPayment(own);
    await confirm(env, own, ownPay.ssl_txn_id!);
    expect(await notices(own.linkId)).toEqual([]);
  });
});

describe('POST /api/linkpaymenthistory/{linkId}/log', () => {
  it('stores the provider answer redacted: never a full card number or a CVC, last 4 kept', async () => {
    const link = await createLinkAtPaymentStep(env.ctx);
    const payload = JSON.stringify({
      kind: 'declined',
      ssl_card_number: '4000000000000051',
      ssl_cvv2cvc2: '987',
      ssl_result_message: 'DECLINED CVV2',
      ssl_cvv2_response: 'N',
      echoed: 'card 4000 0000 0000 0051 cvc=987',
    });
    const r = await env.app.inject({
      method: 'POST',
      url: `/api/linkpaymenthistory/${link.linkId}/log`,
      headers: link.headers,
      payload: { linkStepId: String(link.paymentStepId), payload },
    });
    expect(r.statusCode).toBe(201);
    const row = await db().query<{ payload: string }>('select payload from payment_log where link_id = $1', [
      link.linkId,
    ]);
    const stored = row.rows[0]!.payload;
    expect(stored).not.toMatch(/4000000000000051|4000 0000 0000 0051/);
    expect(stored).not.toContain('987');
    expect(stored).toContain('0051');
    expect(stored).toContain('DECLINED CVV2');
    expect(await auditActions(link.linkId)).toContain('payment.failure_logged');
  });

  it("refuses another link's step and another link's id", async () => {
    const a = await createLinkAtPaymentStep(env.ctx);
    const b = await createLinkAtPaymentStep(env.ctx);
    const r1 = await env.app.inject({
      method: 'POST',
      url: `/api/linkpaymenthistory/${a.linkId}/log`,
      headers: a.headers,
      payload: { linkStepId: b.paymentStepId, payload: '{}' },
    });
    expect(r1.statusCode).toBe(400);
    const r2 = await env.app.inject({
      method: 'POST',
      url: `/api/linkpaymenthistory/${b.linkId}/log`,
      headers: a.headers,
      payload: { linkStepId: b.paymentStepId, payload: '{}' },
    });
    expect(r2.statusCode).toBe(403);
  });
});

describe('content security policy', () => {
  it('allows exactly the configured gateway origin for scripts, connections and frames', async () => {
    const r = await env.app.inject({ method: 'GET', url: '/healthz' });
    const csp = String(r.headers['content-security-policy']);
    const directive = (name: string) =>
      csp
        .split(';')
        .map((d) => d.trim())
        .find((d) => d.startsWith(`${name} `)) ?? '';
    expect(directive('script-src')).toContain(env.gatewayOrigin);
    expect(directive('connect-src')).toContain(env.gatewayOrigin);
    expect(directive('frame-src')).toContain(env.gatewayOrigin);
    expect(csp).not.toContain('convergepay.com');
  });
});
