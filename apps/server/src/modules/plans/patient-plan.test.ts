import { createHash } from 'node:crypto';
import { agreementText, CARD_ON_FILE_AGREEMENT_VERSION, cardOnFileAgreement, type PatientPlan } from '@paylink/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '../../lib/audit.js';
import { apiHeaders } from '../../../test/support/context.js';
import {
  confirm,
  createLinkAtPaymentStep,
  payWithSandbox,
  requestSessionToken,
  startPaymentTestEnv,
  type PaymentTestEnv,
  type TestLink,
} from '../../../test/support/payment-fixtures.js';
import { showConsoleLink } from '../console/link-detail.js';
import { openCardToken } from './index.js';
import { insertPlan } from './plans-queries.js';

let env: PaymentTestEnv;
beforeAll(async () => {
  env = await startPaymentTestEnv();
});
afterAll(async () => env.close());

const db = () => env.ctx.db;
const monthly = { kind: 'installments', count: 3, every: 'month', firstDueOn: '2098-01-31' } as const;

/** A link at the payment step ($500 chosen) whose quote is $2,000 with the balance in 3 monthly instalments. */
async function planLink(opts: { language?: 'en' | 'es' } = {}): Promise<TestLink> {
  const link = await createLinkAtPaymentStep(env.ctx, { amountDollars: 500, ...opts });
  await insertPlan(db(), { linkId: link.linkId, totalCents: 200_000, shape: monthly, createdBy: null });
  return link;
}

const getPlan = (link: TestLink, headers = link.headers) =>
  env.app.inject({ method: 'GET', url: `/api/plans/${link.linkId}`, headers });
const accept = (
  link: TestLink,
  version = CARD_ON_FILE_AGREEMENT_VERSION,
  headers: Record<string, string> = link.headers,
) =>
  env.app.inject({
    method: 'POST',
    url: `/api/plans/${link.linkId}/agreement`,
    headers: { ...headers, 'user-agent': 'PlanTest/1.0' },
    payload: { version, accepted: true },
  });
const audits = async (linkId: string, action: string) =>
  (await db().query('select details from audit_event where link_id = $1 and action = $2', [linkId, action])).rows;

describe('GET /api/plans/:linkId', () => {
  it('projects the balance from the chosen amount before the deposit, and audits the read', async () => {
    const link = await planLink();
    const r = await getPlan(link);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({
      kind: 'installments',
      total: 2000,
      deposit: null,
      balance: 1500,
      projected: true,
      installments: [
        { n: 1, dueOn: '2098-01-31', amount: 500, status: 'scheduled' },
        { n: 2, dueOn: '2098-02-28', amount: 500, status: 'scheduled' },
        { n: 3, dueOn: '2098-03-31', amount: 500, status: 'scheduled' },
      ],
      shape: { kind: 'installments', count: 3, every: 'month', firstDueOn: '2098-01-31' },
      noticeDays: 7,
      scheduleLines: {
        en: ['January 31, 2098: $500.00', 'February 28, 2098: $500.00', 'March 31, 2098: $500.00'],
        es: ['31 de enero de 2098: $500.00', '28 de febrero de 2098: $500.00', '31 de marzo de 2098: $500.00'],
      },
      card: null,
      agreement: { version: CARD_ON_FILE_AGREEMENT_VERSION, acceptedAt: null },
    });
    expect(r.json().practice.name).toBeTruthy();
    expect(await audits(link.linkId, 'plan.read')).toHaveLength(1);
  });

  it('answers 404 with a message for a link without a plan, 401 without a session, 403 for another link', async () => {
    const plain = await createLinkAtPaymentStep(env.ctx);
    const none = await getPlan(plain);
    expect(none.statusCode).toBe(404);
    expect(none.json()).toMatchObject({ error: 'not_found', message: 'This link has no payment plan.' });
    const link = await planLink();
    expect((await getPlan(link, apiHeaders(env.ctx))).statusCode).toBe(401);
    expect((await getPlan(link, plain.headers)).statusCode).toBe(403);
  });

  it('refuses a revoked session 401 at once, with or without a plan (the row is checked in the first statement)', async () => {
    const plain = await createLinkAtPaymentStep(env.ctx);
    const link = await planLink();
    expect((await getPlan(link)).statusCode).toBe(200);
    await env.ctx.db.query('update patient_session set revoked_at = now() where link_id = any($1)', [
      [plain.linkId, link.linkId],
    ]);
    expect((await getPlan(plain)).statusCode).toBe(401);
    expect((await getPlan(link)).statusCode).toBe(401);
    // Another link's id with a dead session: 401, never 403.
    expect((await getPlan(link, plain.headers)).statusCode).toBe(401);
  });
});

describe('POST /api/plans/:linkId/agreement', () => {
  it('stores the acceptance with the link language, address and user agent (201), audited', async () => {
    const link = await planLink({ language: 'es' });
    const r = await accept(link);
    expect(r.statusCode, r.body).toBe(201);
    expect(r.json()).toMatchObject({ version: CARD_ON_FILE_AGREEMENT_VERSION });
    const row = await db().query<Record<string, unknown>>(
      'select text_version, language, ip, user_agent, stored_card_id from card_agreement where link_id = $1',
      [link.linkId],
    );
    expect(row.rows).toEqual([
      {
        text_version: CARD_ON_FILE_AGREEMENT_VERSION,
        language: 'es',
        ip: expect.any(String),
        user_agent: 'PlanTest/1.0',
        stored_card_id: null,
      },
    ]);
    expect(await audits(link.linkId, 'plan.agreement_accepted')).toHaveLength(1);
    expect((await getPlan(link)).json().agreement.acceptedAt).toBe(r.json().acceptedAt);
  });

  it('refuses another version (409), no session (401), another link (403), a link without a plan (404)', async () => {
    const link = await planLink();
    const old = await accept(link, '2020-01-01');
    expect(old.statusCode).toBe(409);
    expect(old.json()).toMatchObject({ error: 'agreement_outdated', message: expect.stringMatching(/Reload/) });
    expect((await accept(link, CARD_ON_FILE_AGREEMENT_VERSION, apiHeaders(env.ctx))).statusCode).toBe(401);
    const plain = await createLinkAtPaymentStep(env.ctx);
    expect((await accept(link, CARD_ON_FILE_AGREEMENT_VERSION, plain.headers)).statusCode).toBe(403);
    expect((await accept(plain)).statusCode).toBe(404);
    expect((await db().query('select 1 from card_agreement where link_id = $1', [link.linkId])).rowCount).toBe(0);
  });
});

describe('the deposit of a plan link', () => {
  it('needs the agreement, stores the card sealed and the instalments at the approval', async () => {
    const link = await planLink();
    const refused = await requestSessionToken(env, link);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: 'agreement_required', message: expect.stringMatching(/agreement/) });

    expect((await accept(link)).statusCode).toBe(201);
    const t = await requestSessionToken(env, link);
    expect(t.statusCode, t.body).toBe(200);
    const { pay } = await payWithSandbox(env.gatewayOrigin, {
      sessionToken: t.body,
      card: '4000000000000002',
      amountCents: link.amountCents,
    });
    expect(pay?.ssl_result).toBe('0');
    expect((await confirm(env, link, pay!.ssl_txn_id!)).statusCode).toBe(200);

    const plan = (await getPlan(link)).json();
    expect(plan).toMatchObject({
      deposit: 500,
      balance: 1500,
      projected: false,
      card: { last4: '0002' },
      installments: [
        { n: 1, amount: 500, status: 'scheduled' },
        { n: 2, amount: 500, status: 'scheduled' },
        { n: 3, amount: 500, status: 'scheduled' },
      ],
    });
    const card = await db().query<{
      id: string;
      token_sealed: string;
      last4: string;
      exp_month: number;
      exp_year: number;
      approval_code: string | null;
      payment_attempt_id: string;
    }>(
      `select id::text, token_sealed, last4, exp_month, exp_year, approval_code, payment_attempt_id
       from stored_card where link_id = $1 and replaced_at is null`,
      [link.linkId],
    );
    const stored = card.rows[0]!;
    expect(stored).toMatchObject({ last4: '0002', exp_month: 12, exp_year: 2099 });
    expect(stored.approval_code).toBe(pay!.ssl_approval_code);
    // Sealed: not the gateway's token, which opens from it.
    expect(stored.token_sealed).toMatch(/^v[12]\./);
    expect(stored.token_sealed).not.toContain(pay!.ssl_token!);
    expect(await openCardToken({ db: db(), config: env.ctx.config, q: db() }, stored.token_sealed)).toBe(
      pay!.ssl_token,
    );
    const agreement = await db().query('select stored_card_id::text as c from card_agreement where link_id = $1', [
      link.linkId,
    ]);
    expect(agreement.rows).toEqual([{ c: stored.id }]);
    expect(await audits(link.linkId, 'plan.card_stored')).toHaveLength(1);
    expect(JSON.stringify(await audits(link.linkId, 'plan.card_stored'))).not.toContain(pay!.ssl_token!);
  });

  it('stores the card when the reconciliation finds the approval (no confirmation from the browser)', async () => {
    const link = await planLink();
    await accept(link);
    const t = await requestSessionToken(env, link);
    const { pay } = await payWithSandbox(env.gatewayOrigin, {
      sessionToken: t.body,
      card: '4000000000000002',
      amountCents: link.amountCents,
    });
    expect(pay?.ssl_result).toBe('0');
    await env.ctx.linkPayments.reconcileLink({ linkId: link.linkId, actor: SYSTEM_ACTOR });
    expect((await getPlan(link)).json()).toMatchObject({ projected: false, card: { last4: '0002' } });
  });

  it('records an approval without a token and flags the plan as needing a card', async () => {
    const link = await planLink();
    const attempt = 'a'.repeat(24);
    await db().query(
      `insert into payment_attempt (id, link_id, payment_id, amount_cents, gateway, status)
       select $2, link_id, id, amount_cents, 'sandbox', 'closed' from payment where link_id = $1`,
      [link.linkId, attempt],
    );
    await db().transaction((tx) =>
      env.ctx.linkPlans.onDepositApproved(tx, {
        actor: SYSTEM_ACTOR,
        linkId: link.linkId,
        attemptId: attempt,
        paidCents: 50_000,
        transaction: {
          txnId: 'T-1',
          approved: true,
          resultMessage: 'APPROVAL',
          amountCents: 50_000,
          merchantTxnId: attempt,
          approvalCode: 'A1',
          cardBrand: 'visa',
          last4: '0002',
          transactionType: 'SALE',
          transStatus: 'PEN',
          settled: false,
          cardToken: null,
        },
      }),
    );
    const plan = await db().query<{ status: string; needed: boolean }>(
      'select status, card_needed_at is not null as needed from payment_plan where link_id = $1',
      [link.linkId],
    );
    expect(plan.rows[0]).toEqual({ status: 'active', needed: true });
    expect((await db().query('select 1 from stored_card where link_id = $1', [link.linkId])).rowCount).toBe(0);
    expect(await audits(link.linkId, 'plan.card_missing')).toHaveLength(1);
    expect((await getPlan(link)).json()).toMatchObject({ projected: false, card: null });
  });

  it('asks no agreement for the deposit of a plan cancelled before it (nothing will be charged later)', async () => {
    const link = await planLink();
    await db().query(`update payment_plan set status = 'cancelled', cancelled_at = now() where link_id = $1`, [
      link.linkId,
    ]);
    expect(await env.ctx.linkPlans.depositTerms(db(), link.linkId)).toEqual({
      storeCard: false,
      agreementAccepted: false,
    });
    expect((await requestSessionToken(env, link)).statusCode).toBe(200);
  });

  it('leaves a link without a plan as before: no agreement asked, no card stored', async () => {
    const link = await createLinkAtPaymentStep(env.ctx);
    expect(await env.ctx.linkPlans.depositTerms(db(), link.linkId)).toBeNull();
    const t = await requestSessionToken(env, link);
    expect(t.statusCode).toBe(200);
    const { pay } = await payWithSandbox(env.gatewayOrigin, {
      sessionToken: t.body,
      card: '4000000000000002',
      amountCents: link.amountCents,
    });
    expect((await confirm(env, link, pay!.ssl_txn_id!)).statusCode).toBe(200);
    expect((await db().query('select 1 from stored_card where link_id = $1', [link.linkId])).rowCount).toBe(0);
    const planAudits = await db().query(`select 1 from audit_event where link_id = $1 and action like 'plan.%'`, [
      link.linkId,
    ]);
    expect(planAudits.rowCount).toBe(0);
  });
});

/** A plan link whose patient accepted the agreement and paid the $500 deposit with a Visa ending 0002. */
async function paidPlanLink(opts: { language?: 'en' | 'es'; email?: string } = {}): Promise<TestLink> {
  const link = await createLinkAtPaymentStep(env.ctx, { amountDollars: 500, ...opts });
  await insertPlan(db(), { linkId: link.linkId, totalCents: 200_000, shape: monthly, createdBy: null });
  expect((await accept(link)).statusCode).toBe(201);
  const t = await requestSessionToken(env, link);
  const { pay } = await payWithSandbox(env.gatewayOrigin, {
    sessionToken: t.body,
    card: '4000000000000002',
    amountCents: link.amountCents,
  });
  expect((await confirm(env, link, pay!.ssl_txn_id!)).statusCode).toBe(200);
  return link;
}
const receipts = async (linkId: string) =>
  (
    await db().query<{ channel: string; body_text: string }>(
      `select channel, body_text from outbox_message where link_id = $1 and kind = 'receipt' order by id`,
      [linkId],
    )
  ).rows;

/** The words a payment page shows for this plan, built as the web app builds them, from GET /api/plans. */
function pageWords(plan: PatientPlan, lang: 'en' | 'es', card: string | null): string {
  return agreementText(
    cardOnFileAgreement[lang]({
      practice: plan.practice.name,
      practicePhone: plan.practice.phone,
      practiceEmail: plan.practice.email,
      schedule: plan.scheduleLines[lang],
      noticeDays: plan.noticeDays,
      card,
    }),
  );
}
const acceptShown = (link: TestLink, payload: Record<string, unknown>) =>
  env.app.inject({
    method: 'POST',
    url: `/api/plans/${link.linkId}/agreement`,
    headers: { ...link.headers, 'user-agent': 'PlanTest/1.0' },
    payload: { version: CARD_ON_FILE_AGREEMENT_VERSION, accepted: true, ...payload },
  });

describe('the agreement’s exact words (decision 0214)', () => {
  it('keeps the words the page showed, in the page’s language, with their SHA-256; the receipt quotes them', async () => {
    const link = await planLink({ language: 'en' });
    const plan = (await getPlan(link)).json() as PatientPlan;
    const text = pageWords(plan, 'es', 'Visa terminada en 0002');
    const r = await acceptShown(link, { lang: 'es', text, cardLabel: 'Visa terminada en 0002' });
    expect(r.statusCode, r.body).toBe(201);
    const row = () =>
      db().query('select language, text, text_sha256 from card_agreement where link_id = $1', [link.linkId]);
    // Until the deposit stores a card, the words kept leave it unnamed: the page's label is never stored (0240).
    const unnamed = pageWords(plan, 'es', null);
    expect(unnamed).toContain('a guardar la tarjeta que ingrese abajo con');
    expect((await row()).rows).toEqual([
      { language: 'es', text: unnamed, text_sha256: createHash('sha256').update(unnamed).digest('hex') },
    ]);
    expect(text).toContain('Autorizo a');
    expect(text).toContain('31 de enero de 2098: $500.00');
    const t = await requestSessionToken(env, link);
    const { pay } = await payWithSandbox(env.gatewayOrigin, {
      sessionToken: t.body,
      card: '4000000000000002',
      amountCents: link.amountCents,
    });
    expect((await confirm(env, link, pay!.ssl_txn_id!)).statusCode).toBe(200);
    // The card the gateway stored is the one the page named: the words kept are the page's, to the byte.
    expect((await row()).rows).toEqual([
      { language: 'es', text, text_sha256: createHash('sha256').update(text).digest('hex') },
    ]);
    const [mail] = await receipts(link.linkId);
    // The receipt is in the link's language; the agreement in the words the patient read.
    expect(mail!.body_text).toContain('Visa terminada en 0002 con su procesador de pagos');
  });

  it('refuses words that are not the plan’s now (409 agreement_changed) and a card named otherwise (400): nothing kept', async () => {
    const link = await planLink();
    const plan = (await getPlan(link)).json() as PatientPlan;
    const stale = pageWords(
      { ...plan, scheduleLines: { ...plan.scheduleLines, en: plan.scheduleLines.en.slice(0, 2) } },
      'en',
      null,
    );
    const r = await acceptShown(link, { lang: 'en', text: stale, cardLabel: null });
    expect(r.statusCode).toBe(409);
    expect(r.json()).toMatchObject({ error: 'agreement_changed', message: expect.stringMatching(/Reload the page/) });
    const otherCard = await acceptShown(link, {
      lang: 'en',
      text: pageWords(plan, 'en', 'Visa ending in 0002'),
      cardLabel: 'Mastercard ending in 4444',
    });
    expect(otherCard.statusCode).toBe(409);
    const badLabel = await acceptShown(link, {
      lang: 'en',
      text: pageWords(plan, 'en', '4000000000000002'),
      cardLabel: '4000000000000002',
    });
    expect(badLabel.statusCode).toBe(400);
    expect(badLabel.json().message).toMatch(/brand and last four/);
    expect((await db().query('select 1 from card_agreement where link_id = $1', [link.linkId])).rowCount).toBe(0);
    expect(await audits(link.linkId, 'plan.agreement_accepted')).toHaveLength(0);
  });
});

describe('what the patient and the practice see of a paid plan link', () => {
  it('the e-mail receipt has the balance’s schedule and the agreement’s words as accepted, with their version', async () => {
    const link = await paidPlanLink();
    const [mail] = await receipts(link.linkId);
    expect(mail!.channel).toBe('email');
    const text = mail!.body_text;
    expect(text).toContain('The balance will be charged to the same card on this schedule:');
    expect(text).toContain('January 31, 2098: $500.00');
    expect(text).toContain('February 28, 2098: $500.00');
    expect(text).toContain('March 31, 2098: $500.00');
    expect(text).toContain(`Card-on-file agreement (version ${CARD_ON_FILE_AGREEMENT_VERSION}), as you accepted it:`);
    expect(text).toMatch(/I authorize .* to keep Visa ending in 0002 on file with its card processor/);
    expect(text).toContain('Cancelling the charges does not cancel what I owe under my contract.');
  });

  it('the SMS receipt (no e-mail address) adds one GSM-7 line on the balance, in Spanish', async () => {
    const link = await paidPlanLink({ language: 'es', email: '' });
    const [sms] = await receipts(link.linkId);
    expect(sms!.channel).toBe('sms');
    expect(sms!.body_text).toContain('Saldo: 3 cobros desde el 31 ene 2098; vea su enlace.');
    // The link itself, in the patient's language (issue 41).
    expect(sms!.body_text).toMatch(new RegExp(`vea su enlace\\. https?://\\S+/auth\\?id=${link.linkId}&lng=es$`));
    expect(sms!.body_text).toMatch(/^[\x20-\x7E]+$/);
  });

  it('the console timeline tells the acceptance with its version, address and browser, and leaves out plan.read', async () => {
    const link = await paidPlanLink();
    expect((await getPlan(link)).statusCode).toBe(200);
    expect(await audits(link.linkId, 'plan.read')).toHaveLength(1);
    const detail = await showConsoleLink({ ctx: env.ctx, actor: SYSTEM_ACTOR, id: link.linkId });
    const accepted = detail.timeline.find((e) => e.action === 'plan.agreement_accepted')!;
    expect(accepted.actor.type).toBe('patient');
    expect(accepted.text.en).toMatch(
      new RegExp(
        `^Accepted the card-on-file agreement \\(version ${CARD_ON_FILE_AGREEMENT_VERSION}\\) on \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC from \\S+$`,
      ),
    );
    expect(accepted.text.es).toContain(
      `Aceptó la autorización para guardar la tarjeta (versión ${CARD_ON_FILE_AGREEMENT_VERSION})`,
    );
    expect(accepted.note).toBe('PlanTest/1.0');
    const actions = detail.timeline.map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['plan.card_stored', 'plan.activated']));
    expect(actions).not.toContain('plan.read');
    expect(detail.timeline.find((e) => e.action === 'plan.activated')!.text.en).toBe(
      'The payment plan started: 3 installment(s) for $1,500.00',
    );
  });
});
