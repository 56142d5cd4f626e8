import assert from 'node:assert/strict';
import { expectAccessible } from '../support/a11y.js';
import {
  answerChallenge,
  expectConfirmation,
  expectNoHorizontalScroll,
  fillCard,
  futureExpiry,
  payNow,
  say,
  sayRe,
  signInBySms,
  type Flow,
} from '../support/flows.js';
import { depositToPaymentPage } from '../support/journeys.js';
import { messageText, waitForMessage } from '../support/outbox.js';
import { PHONE, SCREENSHOT_PHONE } from '../support/session.js';
import { test } from '../support/test.js';

/**
 * Issue 28, a declined instalment (decision 0211): the deposit is paid with 4000000000000341 (approved, stored; every
 * later charge of its token declined for insufficient funds). At the due date the scheduler's charge is declined; the
 * patient's text message holds the update-card link; the patient opens it on a 390 px phone, signs in by SMS, sees the
 * open instalment, enters a new card that asks for the 3-D Secure challenge (verified, nothing charged) and accepts
 * the card-on-file agreement again; the scheduler's next pass charges the new card once and the instalment is paid.
 */
// Weeks pass between the deposit's sign-in and the decline's; here minutes do, so no resend cooldown.
test.use({ viewport: PHONE, isMobile: true, hasTouch: true, productEnv: { OTP_RESEND_COOLDOWN_SECONDS: '0' } });

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
type PlanView = { plan: { status: string; installments: { status: string; amount: number }[] } };

test('a declined instalment: the patient updates the card with 3-D Secure and the retry charges it once', async ({
  product,
  admin,
  page,
  openSession,
}) => {
  const dueOn = day(40);
  const link = await admin.createLink({ language: 'en', plan: { total: 2000, kind: 'single', dueOn } });
  const f: Flow = { page, product, link, lng: 'en' };

  await depositToPaymentPage(f);
  await fillCard(f, { number: '4000000000000341' });
  await page.getByRole('checkbox', { name: sayRe('en', 'payment:plan.agree') }).check();
  await payNow(f);
  await expectConfirmation(f, { amount: '$500.00' });

  // The notice, then the due date: the stored card is declined (insufficient funds).
  await admin.request('POST', '/plans/run', { now: `${day(33)}T17:00:00Z` });
  await admin.request('POST', '/plans/run', { now: `${dueOn}T17:00:00Z` });
  const declined = await admin.request<PlanView>('GET', `/links/${link.id}`);
  assert.deepEqual(
    declined.plan.installments.map((i) => i.status),
    ['notified'],
    'declined and waiting for its retry',
  );
  const sms = await waitForMessage(product, {
    to: link.phone,
    channel: 'sms',
    match: (m) => /declined/.test(messageText(m)) && messageText(m).includes('next=card'),
  });
  const updateUrl = /(https?:\/\/\S+next=card\S*)/.exec(sms.text)?.[1];
  assert.ok(updateUrl, `the message holds the update-card link: ${sms.text}`);

  // The patient opens it on their phone (another browser): sign in as always, then the update-card page.
  const phone = await openSession({ viewport: SCREENSHOT_PHONE, isMobile: true, hasTouch: true, label: 'phone' });
  const p: Flow = { page: phone.page, product, link, lng: 'en' };
  const u = new URL(updateUrl);
  assert.equal(u.pathname, '/auth');
  await phone.page.goto(`${product.baseUrl}${u.pathname}${u.search}`);
  await signInBySms(p, { landing: '/updatecard' });
  await phone.page.getByRole('heading', { level: 1, name: say('en', 'payment:updateCard.title') }).waitFor();
  const open = phone.page.getByTestId('open-installments');
  await open.getByText('$1,500.00').waitFor();
  await phone.page
    .getByText(/ending in 0341/)
    .first()
    .waitFor();
  await expectNoHorizontalScroll(phone.page);
  await expectAccessible(phone.page, 'update card');

  // Saving without the agreement says why and changes nothing.
  const save = phone.page.getByRole('button', { name: sayRe('en', 'payment:updateCard.save') });
  const field = (name: string) => phone.page.getByLabel(sayRe('en', `payment:fields.${name}`)).first();
  await field('fullName').fill('Pat Patient');
  await field('cardNumber').fill('4000000000000077');
  await field('expiry').fill(futureExpiry());
  await field('cvc').fill('123');
  await field('billingZip').fill('90401');
  await save.click();
  await phone.page.getByText(say('en', 'payment:updateCard.agreeRequired')).first().waitFor();
  await phone.page.getByRole('checkbox', { name: sayRe('en', 'payment:plan.agree') }).check();
  await save.click();
  await answerChallenge(p, 'authenticate');
  const saved = phone.page.getByTestId('card-saved');
  await saved.waitFor();
  assert.match(await saved.innerText(), /ending in 0077/);
  await expectNoHorizontalScroll(phone.page);

  // The next pass (before the 1-day retry would come) charges the new card, once; later passes nothing more.
  await admin.request('POST', '/plans/run', { now: `${dueOn}T17:30:00Z` });
  await admin.request('POST', '/plans/run', { now: `${day(41)}T17:30:00Z` });
  const paid = await admin.request<PlanView>('GET', `/links/${link.id}`);
  assert.deepEqual(
    paid.plan.installments.map((i) => i.status),
    ['paid'],
  );
  assert.equal(paid.plan.status, 'completed');
  await waitForMessage(product, {
    to: link.phone,
    channel: 'sms',
    match: (m) => messageText(m).includes('received $1,500.00'),
  });
  await phone.close();
});
