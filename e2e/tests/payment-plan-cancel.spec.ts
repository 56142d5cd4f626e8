import assert from 'node:assert/strict';
import { cardOnFileAgreement } from '@paylink/shared';
import { expectAccessible } from '../support/a11y.js';
import { CARDS, expectConfirmation, fillCard, payNow, sayRe, type Flow } from '../support/flows.js';
import { depositToPaymentPage } from '../support/journeys.js';
import { messageText, waitForMessage } from '../support/outbox.js';
import { DESKTOP, PHONE } from '../support/session.js';
import { test } from '../support/test.js';

/**
 * Issue 28, the cancel path (decision 0210): the patient pays the deposit of a $2,000 quote whose $1,500 balance is
 * in 3 monthly instalments, accepting the card-on-file agreement; a coordinator cancels the rest of the plan from the
 * link page's plan card; the patient's cancellation confirmation is in the outbox at once (the networks ask for it
 * within 3 days), and the scheduler charges nothing on the first due date.
 */
test.use({ viewport: PHONE, isMobile: true, hasTouch: true });

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

test('staff cancel the rest of a plan after the deposit; the patient is sent the cancellation at once', async ({
  product,
  admin,
  page,
  staff,
}) => {
  const firstDueOn = day(30);
  const link = await admin.createLink({
    language: 'en',
    plan: { total: 2000, kind: 'installments', count: 3, every: 'month', firstDueOn },
  });
  const f: Flow = { page, product, link, lng: 'en' };

  await depositToPaymentPage(f);
  const title = cardOnFileAgreement.en({
    practice: '',
    practicePhone: '',
    practiceEmail: '',
    schedule: [],
    noticeDays: 7,
    card: null,
  }).title;
  await page.getByRole('group', { name: title }).waitFor();
  await fillCard(f, { number: CARDS.visaFrictionless });
  await page.getByRole('checkbox', { name: sayRe('en', 'payment:plan.agree') }).check();
  await payNow(f);
  await expectConfirmation(f, { amount: '$500.00' });

  // The coordinator, on the link page: the plan card's cancel, behind its confirmation with a reason.
  const { page: console } = await staff('demo', { viewport: DESKTOP, isMobile: false, hasTouch: false });
  await console.goto(`${product.baseUrl}/console/links/${link.id}`);
  const card = console.getByTestId('plan-card');
  await card.getByText('Active').first().waitFor();
  await card.getByRole('button', { name: 'Cancel the rest of the plan' }).click();
  const dialog = console.getByRole('dialog', { name: 'Cancel the rest of this plan?' });
  await dialog.getByText('No remaining installment ($1,500.00) will be charged').waitFor();
  await expectAccessible(console, 'console plan cancel dialog (en)');
  await dialog.getByLabel(/Reason/).fill('Surgery cancelled by the patient');
  await dialog.getByRole('button', { name: 'Cancel the rest' }).click();
  await card.getByText('The rest of the plan is cancelled and the patient was sent a confirmation.').waitFor();
  await card.getByText('Cancelled').first().waitFor();
  await expectAccessible(console, 'console plan cancelled (en)');

  // The patient's confirmation, by SMS, queued with the cancellation itself.
  const sms = await waitForMessage(product, {
    to: link.phone,
    channel: 'sms',
    match: (m) => messageText(m).includes('payment plan is cancelled'),
  });
  assert.ok(messageText(sms).includes('the 3 remaining payments ($1,500.00 in all)'), messageText(sms));
  assert.ok(messageText(sms).includes('0002'), 'the card that will not be charged');

  const after = await admin.request<{ plan: { status: string; installments: { status: string }[] } }>(
    'GET',
    `/links/${link.id}`,
  );
  assert.equal(after.plan.status, 'cancelled');
  assert.deepEqual(
    after.plan.installments.map((i) => i.status),
    ['cancelled', 'cancelled', 'cancelled'],
  );
  // The first due date comes: nothing is noticed or charged.
  const run = await admin.request<{ notified: number; paid: number }>('POST', '/plans/run', {
    now: `${firstDueOn}T17:00:00Z`,
  });
  assert.equal(run.paid, 0);
  const still = await admin.request<{ plan: { installments: { status: string }[] } }>('GET', `/links/${link.id}`);
  assert.deepEqual(
    still.plan.installments.map((i) => i.status),
    ['cancelled', 'cancelled', 'cancelled'],
  );
});
