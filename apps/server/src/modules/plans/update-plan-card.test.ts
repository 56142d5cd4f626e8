import {
  agreementText,
  CARD_ON_FILE_AGREEMENT_VERSION,
  cardOnFileAgreement,
  type PatientPlanView,
} from '@paylink/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { notifyStaff } from '../messaging/staff-notifications.js';
import { runPlanScheduler } from './index.js';
import { insertPlan } from './plans-queries.js';

/**
 * The update-card flow (decision 0211) against the real database and the sandbox gateway: a declined instalment tells
 * the patient (with the update-card link) and the practice; the patient accepts the agreement again, verifies a new
 * card with 3-D Secure (ccverify, nothing charged), the server asks the gateway and stores it, and the scheduler's
 * next pass charges the waiting instalment once to the new card. Also the expiring-card notice, once.
 */
let env: PaymentTestEnv;
beforeAll(async () => {
  env = await startPaymentTestEnv({
    PUBLIC_URL: 'https://pay.example.com',
    PRACTICE_TIME_ZONE: 'America/Chicago',
    REMINDER_QUIET_HOURS: '21-8',
    PRACTICE_NOTIFY_EMAIL: 'billing@practice.example',
  });
});
afterAll(async () => env?.close());

const db = () => env.ctx.db;
const run = (now: string) =>
  runPlanScheduler({
    db: db(),
    gateway: env.ctx.providers.gateway,
    config: env.ctx.config,
    now: new Date(now),
    log: env.ctx.log,
  });
const post = (link: TestLink, url: string, payload?: object) =>
  env.app.inject({ method: 'POST', url, headers: { ...link.headers, 'user-agent': 'CardTest/1.0' }, payload });
const accept = (link: TestLink) =>
  post(link, `/api/plans/${link.linkId}/agreement`, { version: CARD_ON_FILE_AGREEMENT_VERSION, accepted: true });
const messages = async (linkId: string, kind: string) =>
  (
    await db().query<{ to_address: string; body_text: string }>(
      `select to_address, body_text from outbox_message where link_id = $1 and kind = $2 order by id`,
      [linkId, kind],
    )
  ).rows;
const audits = async (linkId: string, action: string) =>
  (await db().query('select details from audit_event where link_id = $1 and action = $2', [linkId, action])).rows;
const installment = async (linkId: string) =>
  (
    await db().query<{ status: string; attempts: number; next_attempt_at: Date | null; gateway_txn_id: string }>(
      `select i.status, i.attempts, i.next_attempt_at, i.gateway_txn_id
         from plan_installment i join payment_plan p on p.id = i.plan_id where p.link_id = $1`,
      [linkId],
    )
  ).rows[0]!;

const showPlan = async (link: TestLink) => {
  const r = await env.app.inject({ method: 'GET', url: `/api/plans/${link.linkId}`, headers: link.headers });
  expect(r.statusCode, r.body).toBe(200);
  return r.json() as PatientPlanView;
};

/** A link with a single-charge plan whose $500 deposit was paid with `card` through the payment page's calls. */
async function paidPlan(card: string, dueOn: string): Promise<TestLink> {
  const link = await createLinkAtPaymentStep(env.ctx, { amountDollars: 500 });
  await insertPlan(db(), {
    linkId: link.linkId,
    totalCents: 120_000,
    shape: { kind: 'single', dueOn },
    createdBy: null,
  });
  expect((await accept(link)).statusCode).toBe(201);
  const token = await requestSessionToken(env, link);
  expect(token.statusCode, token.body).toBe(200);
  const { pay } = await payWithSandbox(env.gatewayOrigin, { sessionToken: token.body, card, amountCents: 50_000 });
  expect(pay?.ssl_result).toBe('0');
  expect((await confirm(env, link, pay!.ssl_txn_id!)).statusCode).toBe(200);
  return link;
}

/** The update page's calls: session, 3-D Secure and pay at the gateway (nothing charged), then the report. */
async function updateCard(link: TestLink, card: string) {
  const session = await post(link, `/api/plans/${link.linkId}/card/session`);
  expect(session.statusCode, session.body).toBe(201);
  const { sessionToken, updateId } = session.json() as { sessionToken: string; updateId: string };
  const { threeDS, pay } = await payWithSandbox(env.gatewayOrigin, { sessionToken, card, amountCents: 0 });
  return { updateId, threeDS, pay };
}

describe('a declined instalment and the new card', () => {
  it('tells the patient and the practice, stores a verified card without a charge, and the retry charges it once', async () => {
    const link = await paidPlan('4000000000000341', '2097-05-10');
    // The paid link is completed, yet its patient can still sign in while the plan has charges to come.
    const signIn = await env.app.inject({
      method: 'GET',
      url: `/api/auth/options?linkId=${link.linkId}`,
      headers: apiHeaders(env.ctx),
    });
    expect(signIn.statusCode, signIn.body).toBe(200);
    const phone = await env.app.inject({
      method: 'GET',
      url: `/api/patients/${link.linkId}/notoken?c=p`,
      headers: apiHeaders(env.ctx),
    });
    expect(phone.statusCode, phone.body).toBe(200);
    expect(await run('2097-05-03T15:00:00Z')).toMatchObject({ notified: 1 });
    expect(await run('2097-05-10T15:00:00Z')).toMatchObject({ declined: 1 });
    // The patient's page says which payment was declined, when, and when it is tried next (practice's days).
    const view = await showPlan(link);
    expect(view.installments).toEqual([
      expect.objectContaining({ n: 1, status: 'notified', lastDeclinedOn: '2097-05-10', nextTryOn: '2097-05-11' }),
    ]);
    expect(view.cardExpiresBefore).toBeNull();

    // The patient's message links to the update-card page; the practice gets a staff e-mail.
    const told = await messages(link.linkId, 'plan-declined');
    expect(told).toHaveLength(1);
    expect(told[0]!.body_text).toContain(`https://pay.example.com/auth?id=${link.linkId}&next=card`);
    await notifyStaff(env.ctx);
    const staff = await messages(link.linkId, 'staff-attention');
    expect(staff.map((m) => m.to_address)).toEqual(['billing@practice.example']);
    expect(staff[0]!.body_text).toContain('Plan installment 1 ($700.00) was declined (DECLINED: NSF)');
    // The next try in the practice's zone (Chicago), not UTC.
    expect(staff[0]!.body_text).toContain('the next try is May 11, 2097, 10:00 AM CDT.');

    // The deposit's acceptance belongs to the old card: the new one needs the agreement again.
    const early = await post(link, `/api/plans/${link.linkId}/card/session`);
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ error: 'agreement_required' });
    expect((await accept(link)).statusCode).toBe(201);

    const { updateId, threeDS, pay } = await updateCard(link, '4000000000000002');
    expect(threeDS?.transStatus).toBe('Y');
    expect(pay).toMatchObject({ ssl_result: '0', ssl_amount: '0.00', ssl_transaction_type: 'VERIFY' });
    const stored = await post(link, `/api/plans/${link.linkId}/card`, { updateId, transactionId: pay!.ssl_txn_id });
    expect(stored.statusCode, stored.body).toBe(200);
    expect(stored.json()).toEqual({ card: { brand: 'visa', last4: '0002' }, retrying: 1 });
    // Told twice: the same answer, nothing stored twice.
    const again = await post(link, `/api/plans/${link.linkId}/card`, { updateId, transactionId: pay!.ssl_txn_id });
    expect(again.json()).toMatchObject({ card: { last4: '0002' } });

    const cards = await db().query<{ last4: string; replaced: boolean; card_update_id: string | null }>(
      `select last4, replaced_at is not null as replaced, card_update_id from stored_card where link_id = $1 order by id`,
      [link.linkId],
    );
    expect(cards.rows).toEqual([
      { last4: '0341', replaced: true, card_update_id: null },
      { last4: '0002', replaced: false, card_update_id: updateId },
    ]);
    const agreements = await db().query<{ last4: string }>(
      `select c.last4 from card_agreement a join stored_card c on c.id = a.stored_card_id where a.link_id = $1
        order by a.id`,
      [link.linkId],
    );
    expect(agreements.rows.map((r) => r.last4)).toEqual(['0341', '0002']);
    expect(await audits(link.linkId, 'plan.card_updated')).toHaveLength(1);

    // Due again at once: the next pass (well before the 1-day retry) charges the new card.
    const waiting = await installment(link.linkId);
    expect(waiting.next_attempt_at!.getTime()).toBeLessThanOrEqual(Date.now());
    expect(await run('2097-05-10T15:10:00Z')).toMatchObject({ paid: 1, declined: 0 });
    const paid = await installment(link.linkId);
    expect(paid).toMatchObject({ status: 'paid', attempts: 2 });
    const charged = await env.ctx.providers.gateway.queryTransaction(paid.gateway_txn_id);
    expect(charged).toMatchObject({ approved: true, amountCents: 70_000, last4: '0002' });
    expect(await run('2097-05-11T15:10:00Z')).toMatchObject({ paid: 0, declined: 0 });
  });

  it("refuses a verification that is not this update's, a declined one, and a plan before its deposit", async () => {
    const link = await paidPlan('4000000000000002', '2097-07-10');
    expect((await accept(link)).statusCode).toBe(201);
    const first = await updateCard(link, '4000000000000002');
    const second = await updateCard(link, '4000000000000085');
    expect(second.pay).toMatchObject({ ssl_result: '1' });
    // The first update's verification reported for the second: refused, nothing changes.
    const wrong = await post(link, `/api/plans/${link.linkId}/card`, {
      updateId: second.updateId,
      transactionId: first.pay!.ssl_txn_id,
    });
    expect(wrong.statusCode).toBe(409);
    expect(wrong.json()).toMatchObject({ error: 'card_not_verified' });
    const declined = await post(link, `/api/plans/${link.linkId}/card`, {
      updateId: second.updateId,
      transactionId: second.pay!.ssl_txn_id,
    });
    expect(declined.statusCode).toBe(409);
    const bad = await post(link, `/api/plans/${link.linkId}/card`, { updateId: 'x', transactionId: 'y' });
    expect(bad.statusCode).toBe(400);
    expect(await audits(link.linkId, 'plan.card_update_refused')).toHaveLength(2);
    const current = await db().query(`select last4 from stored_card where link_id = $1 and replaced_at is null`, [
      link.linkId,
    ]);
    expect(current.rows).toEqual([{ last4: '0002' }]);
    // Cancelled: out of the way of the expiring-card test below.
    await db().query(`update payment_plan set status = 'cancelled' where link_id = $1`, [link.linkId]);
    // A paid link without charges to come signs in no more, as before plans.
    const closed = await env.app.inject({
      method: 'GET',
      url: `/api/auth/options?linkId=${link.linkId}`,
      headers: apiHeaders(env.ctx),
    });
    expect(closed.statusCode).toBe(401);

    const pending = await createLinkAtPaymentStep(env.ctx, { amountDollars: 500 });
    await insertPlan(db(), {
      linkId: pending.linkId,
      totalCents: 120_000,
      shape: { kind: 'single', dueOn: '2097-07-10' },
      createdBy: null,
    });
    const r = await post(pending, `/api/plans/${pending.linkId}/card/session`);
    expect(r.statusCode).toBe(409);
    expect(r.json()).toMatchObject({ error: 'plan_pending' });
  });

  it('asks once for another card when the card expires before an open instalment', async () => {
    // 4000000000000358 is stored expiring next month (by the real clock): long before a 2097 balance.
    const link = await paidPlan('4000000000000358', '2097-09-10');
    expect((await run('2097-08-01T15:00:00Z')).cardsExpiring).toBe(0);
    expect((await run('2097-08-11T15:00:00Z')).cardsExpiring).toBe(1);
    expect((await run('2097-08-12T15:00:00Z')).cardsExpiring).toBe(0);
    const asked = await messages(link.linkId, 'plan-card-expiring');
    expect(asked).toHaveLength(1);
    expect(asked[0]!.body_text).toContain('expires before the balance payment');
    expect(asked[0]!.body_text).toContain(`auth?id=${link.linkId}&next=card`);
    expect(await audits(link.linkId, 'plan.card_expiring_notified')).toHaveLength(1);
    // A returning patient's page says so too: the first charge the card will have expired by.
    expect((await showPlan(link)).cardExpiresBefore).toBe('2097-09-10');
  });

  it('with only a failed payment open, the agreement for a new card names that payment, not an empty schedule', async () => {
    const link = await paidPlan('4000000000000002', '2097-06-10');
    // Declined on every try: failed, charged only when the practice charges it (decisions 0211, 0247).
    await db().query(
      `update plan_installment set status = 'failed'
        where plan_id = (select id from payment_plan where link_id = $1)`,
      [link.linkId],
    );
    const view = await showPlan(link);
    expect(view.scheduleLines).toEqual({ en: [], es: [] });
    expect(view.failedLines).toEqual({ en: ['June 10, 2097: $700.00'], es: ['10 de junio de 2097: $700.00'] });
    const words = (lang: 'en' | 'es', failed: string[]) =>
      agreementText(
        cardOnFileAgreement[lang]({
          practice: view.practice.name,
          practicePhone: view.practice.phone,
          practiceEmail: view.practice.email,
          schedule: view.scheduleLines[lang],
          failed,
          noticeDays: view.noticeDays,
          card: lang === 'es' ? 'Visa terminada en 0002' : 'Visa ending in 0002',
        }),
      );
    const acceptWords = (lang: 'en' | 'es', text: string) =>
      post(link, `/api/plans/${link.linkId}/agreement`, {
        version: CARD_ON_FILE_AGREEMENT_VERSION,
        accepted: true,
        lang,
        text,
        cardLabel: lang === 'es' ? 'Visa terminada en 0002' : 'Visa ending in 0002',
      });
    // The words that named nothing ("on this schedule:" and no line) are not this plan's words any more.
    const empty = await acceptWords('en', words('en', []));
    expect(empty.statusCode, empty.body).toBe(409);
    expect(empty.json()).toMatchObject({ error: 'agreement_changed' });

    for (const lang of ['en', 'es'] as const) {
      const r = await acceptWords(lang, words(lang, view.failedLines![lang]));
      expect(r.statusCode, r.body).toBe(201);
    }
    const kept = (
      await db().query<{ language: string; text: string }>(
        `select language, text from card_agreement where link_id = $1 and text is not null order by id desc limit 2`,
        [link.linkId],
      )
    ).rows;
    const es = kept.find((k) => k.language === 'es')!.text;
    const en = kept.find((k) => k.language === 'en')!.text;
    expect(en).toContain(
      `to charge it for the payment of my plan that was declined, when ${view.practice.name} charges it:\n\nJune 10, 2097: $700.00\n\n`,
    );
    expect(en).not.toContain('on this schedule');
    expect(es).toContain('el pago de mi plan que fue rechazado, cuando');
    expect(es).toContain(':\n\n10 de junio de 2097: $700.00\n\n');
  });
});
