import assert from 'node:assert/strict';
import { AvsTexts, CvvTexts } from '@paylink/shared';
import { expectAccessible } from '../support/a11y.js';
import {
  CARDS,
  closeModal,
  expectConfirmation,
  expectPaymentModal,
  fillCard,
  payButton,
  payNow,
  answerChallenge,
  walkToPayment,
  assertEnabled,
  type Flow,
} from '../support/flows.js';
import { dumpDatabase } from '../support/database.js';
import { test } from '../support/test.js';
import { t as text } from '../support/texts.js';

/**
 * Every decline and 3-D Secure test card of the sandbox gateway (issue 6), one after the other on one payment page:
 * each shows the modal with the spec's texts, closing it releases PAY NOW, and nothing is charged until the last,
 * approved, Mastercard.
 */
// The second test reads what the first left in the database and logs: if the first fails, the second is skipped.
test.describe.configure({ mode: 'serial' });

/** A CVC no other value in the product will contain, so the scan below can look for it. */
const CVC = '8642';

const THREE_DS = {
  title: 'We were unable to process your payment',
  lines: ['Transaction could not authenticate. Please use another form of payment.'],
};
const declined = (message: string, title = 'Card Declined') => ({
  title,
  lines: ['Unable to process payment.', 'Verify the information you entered is correct.', message],
});

test('every decline and 3-D Secure failure shows its modal; then an approved Mastercard pays once', async ({
  product,
  admin,
  page,
}) => {
  const link = await admin.createLink({ firstName: 'Olivia', lastName: 'Chen' });
  const f: Flow = { page, product, link, lng: 'en' };
  await walkToPayment(f, { type: 1, source: 1, amount: '750' });

  const cases: { card: string; challenge?: 'fail'; modal: { title: string; lines: string[] } }[] = [
    { card: CARDS.rejected3ds, modal: THREE_DS },
    { card: CARDS.unavailable3ds, modal: THREE_DS },
    { card: CARDS.challenge, challenge: 'fail', modal: THREE_DS },
    { card: CARDS.cvvNoMatch, modal: declined(CvvTexts.N!) },
    { card: CARDS.avsNoMatch, modal: declined(AvsTexts.N!) },
    { card: CARDS.declined, modal: declined('DECLINED') },
    {
      card: CARDS.luhnInvalid,
      // A gateway error, not a decline: nothing was charged, so the title is neutral (decision 0163).
      modal: declined(
        'The Credit Card Number supplied in the authorization request appears to be invalid.',
        'Payment not completed',
      ),
    },
  ];
  const checked = new Set<string>();
  for (const c of cases) {
    await fillCard(f, { number: c.card, cvc: CVC });
    await payNow(f);
    if (c.challenge) await answerChallenge(f, c.challenge === 'fail' ? 'fail' : 'authenticate');
    await expectPaymentModal(f, c.modal);
    assert.equal(new URL(page.url()).pathname, '/paymentauthorization', `${c.card}: still on the payment page`);
    if (!checked.has(c.modal.title)) await expectAccessible(page, `modal: ${c.modal.title}`);
    checked.add(c.modal.title);
    await closeModal(f);
    await assertEnabled(payButton(f), `PAY NOW after closing the modal for ${c.card}`);
  }

  // Gateway error: errorMessage wins over everything else.
  await fillCard(f, { number: CARDS.gatewayError, cvc: CVC });
  await payNow(f);
  const dialog = await expectPaymentModal(f, {
    title: 'Payment not completed',
    lines: ['Unable to process payment.'],
  });
  const shown = await dialog.innerText();
  assert.ok(
    shown.includes('The transaction could not be processed. Please try again later.') ||
      shown.includes(text('en', 'payment:gatewayError.3003')),
    `the gateway's error message is shown: ${shown}`,
  );
  await closeModal(f);

  // An expiry in the past never reaches the gateway: the form says why and PAY NOW stays disabled.
  const lastYear = String((new Date().getUTCFullYear() - 1) % 100).padStart(2, '0');
  await fillCard(f, { number: CARDS.visaFrictionless, expiry: `01${lastYear}` });
  await page.getByText('Enter a valid expiration year').first().waitFor();
  assert.ok(await payButton(f).isDisabled(), 'PAY NOW disabled with an expired card');

  const before = await admin.getLink(link.id);
  assert.notEqual(before.status, 'completed', 'no failure completed the link');
  assert.ok(!before.payment || before.payment.status !== 'approved', 'no failure was recorded as a payment');

  await fillCard(f, { number: CARDS.mastercardFrictionless, cvc: CVC });
  await payNow(f);
  const { transactionId } = await expectConfirmation(f, { amount: '$750.00' });
  const after = await admin.getLink(link.id);
  assert.equal(after.status, 'completed');
  assert.equal(after.payment?.status, 'approved');
  assert.equal(after.payment?.transactionId, transactionId);
});

test('no card number or CVC reached the database, the outbox or the server logs', async ({ product }) => {
  const logs = product.output();
  await product.halt();
  const dump = await dumpDatabase(product);
  // The declines above were logged: the scan looks where card data would land.
  const sections = dump.split(/^## /m);
  const paymentLog = sections.find((x) => x.startsWith('payment_log\n')) ?? '';
  assert.match(paymentLog, /DECLINED CVV2/, 'the CVV decline was logged');
  for (const number of Object.values(CARDS)) {
    assert.ok(!dump.includes(number), `card number ${number} is stored in the database`);
    assert.ok(!logs.includes(number), `card number ${number} is in the server logs`);
  }
  const cvc = new RegExp(`(cvv|cvc)[^\\n,}]{0,40}${CVC}`, 'i');
  assert.doesNotMatch(dump, cvc, 'a CVC is stored in the database');
  assert.doesNotMatch(logs, cvc, 'a CVC is in the server logs');
});
