import assert from 'node:assert/strict';
import { cardOnFileAgreement } from '@paylink/shared';
import { CARDS, expectConfirmation, fillCard, payButton, payNow, say, sayRe, type Flow } from '../support/flows.js';
import { depositToPaymentPage } from '../support/journeys.js';
import { messageText, waitForMessage } from '../support/outbox.js';
import { PHONE } from '../support/session.js';
import { test } from '../support/test.js';

/**
 * Issue 28: deposit today, balance before surgery. A link with a $2,000 quote and its balance due on one date: the
 * patient pays a $500 deposit on a phone, ticking the card-on-file agreement that shows the $1,500 charge to come; the
 * confirmation shows it; the scheduler (run at chosen times, as `paylink plans run --now` does) sends the notice 7
 * days before and charges the balance once on the due date.
 */
test.use({ viewport: PHONE, isMobile: true, hasTouch: true });

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

for (const lng of ['en', 'es'] as const) {
  test(`${lng}: a plan's deposit stores the card after its own agreement; the balance is noticed, then charged once`, async ({
    product,
    admin,
    page,
  }) => {
    const dueOn = day(40);
    const link = await admin.createLink({ language: lng, plan: { total: 2000, kind: 'single', dueOn } });
    const f: Flow = { page, product, link, lng };

    await depositToPaymentPage(f);

    // The agreement, with the charge to come, above PAY NOW; PAY NOW waits for its own box.
    const title = cardOnFileAgreement[lng]({
      practice: '',
      practicePhone: '',
      practiceEmail: '',
      schedule: [],
      noticeDays: 7,
      card: null,
    }).title;
    const agreement = page.getByRole('group', { name: title });
    await agreement.waitFor();
    await agreement.getByText('$1,500.00').first().waitFor();
    await fillCard(f, { number: CARDS.visaFrictionless });
    await agreement.getByText(/0002/).first().waitFor();
    assert.equal(await payButton(f).isEnabled(), false, 'PAY NOW waits for the card-on-file agreement');
    await page.getByRole('checkbox', { name: sayRe(lng, 'payment:plan.agree') }).check();
    await payNow(f);
    await expectConfirmation(f, { amount: '$500.00' });
    await page.getByText(say(lng, 'common:confirmation.nextCharges')).first().waitFor();
    await page.getByText('$1,500.00').first().waitFor();

    const stored = await admin.request<{
      plan: { status: string; installments: { status: string; amount: number }[] };
    }>('GET', `/links/${link.id}`);
    assert.equal(stored.plan.status, 'active');
    assert.deepEqual(
      stored.plan.installments.map((i) => [i.amount, i.status]),
      [[1500, 'scheduled']],
    );

    // 7 days before the due date: the notice, by SMS, with the amount and the card's last four.
    await admin.request('POST', '/plans/run', { now: `${day(33)}T17:00:00Z` });
    const notice = await waitForMessage(product, {
      to: link.phone,
      channel: 'sms',
      match: (m) => messageText(m).includes('1,500.00') && messageText(m).includes('0002'),
    });
    assert.ok(messageText(notice).includes(link.id), 'the notice links to the plan');
    // The due date: one charge; a second pass charges nothing more.
    await admin.request('POST', '/plans/run', { now: `${dueOn}T17:00:00Z` });
    await admin.request('POST', '/plans/run', { now: `${dueOn}T18:00:00Z` });
    const paid = await admin.request<{ plan: { status: string; installments: { status: string }[] } }>(
      'GET',
      `/links/${link.id}`,
    );
    assert.deepEqual(
      paid.plan.installments.map((i) => i.status),
      ['paid'],
    );
    assert.equal(paid.plan.status, 'completed');
  });
}
