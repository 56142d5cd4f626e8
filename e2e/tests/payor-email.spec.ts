import assert from 'node:assert/strict';
import { expectAccessible } from '../support/a11y.js';
import { uniqueEmail } from '../support/admin.js';
import {
  CARDS,
  answerChallenge,
  choosePayment,
  expectAmountFeedback,
  expectConfirmation,
  expectReceipt,
  expectRoute,
  fillCard,
  nextStep,
  openLink,
  payButton,
  payNow,
  signDocumentStep,
  signInByEmail,
  signingFrame,
  signInFrame,
  assertEnabled,
  sayRe,
  submitPatientInfo,
  uploadIdStep,
  type Flow,
} from '../support/flows.js';
import { test } from '../support/test.js';

/**
 * A payor pays a partial payment for the patient on a 1280×800 desktop: e-mail sign-in, the payor ID step, the signed
 * payment authorisation and the payor's e-mail before PAY NOW, a 3-D Secure challenge, the receipt to the payor.
 * Then a locked link: the type is forced to a partial payment and the 500–20000 range applies.
 */
test('payor pays a partial payment: e-mail sign-in, payor ID, signed authorisation, challenge, receipt to the payor', async ({
  product,
  admin,
  outbox,
  page,
}) => {
  const payorEmail = uniqueEmail('payor');
  const link = await admin.createLink({
    firstName: 'James',
    lastName: 'Okafor',
    signInMethod: 'email',
    payorName: 'Grace Okafor',
    payorEmail,
  });
  const f: Flow = { page, product, link, lng: 'en' };
  await openLink(f);
  await expectRoute(page, '/auth');
  await expectAccessible(page, 'auth (e-mail)');
  await signInByEmail(f, link.email, { axe: true });

  await expectAmountFeedback(f, {
    type: 2,
    source: 2,
    amount: '499',
    message: 'Amount entered must be between $500 and $20,000',
  });
  await choosePayment(f, { amount: '1500' });
  await submitPatientInfo(f);

  await expectRoute(page, '/patientinvoicedetail');
  await signDocumentStep(f, { by: 'type' });
  await nextStep(f);
  await expectRoute(page, '/patientiddocs');
  await uploadIdStep(f, { seed: 3 });
  await nextStep(f);
  await expectRoute(page, '/payoriddocs');
  await uploadIdStep(f, { seed: 5, axe: 'payor ID' });
  await nextStep(f);
  await expectRoute(page, '/patientcontract');
  await signDocumentStep(f, { by: 'draw' });
  await nextStep(f);

  await expectRoute(page, '/paymentauthorization');
  await page.getByText(/payor/i).first().waitFor();
  // Payor-paid: the card form starts empty.
  assert.equal(
    await page
      .getByLabel(/name on card|full name/i)
      .first()
      .inputValue(),
    '',
  );
  // ...except the payor's e-mail the coordinator entered (issue 16, item 7; decision 0166).
  assert.equal(await page.getByLabel(sayRe('en', 'payment:fields.payorEmail')).first().inputValue(), payorEmail);
  // The authorisation frame (400 px) must be signed and the payor's e-mail given before PAY NOW.
  const frame = page.locator(`iframe[src^="${product.signOrigin}"]`);
  await frame.waitFor();
  const height = (await frame.boundingBox())!.height;
  assert.ok(height >= 396 && height <= 400, `the authorisation frame is 400 px high (borders aside): ${height}`);
  await fillCard(f, { number: CARDS.challenge, name: 'Grace Okafor', payorEmail });
  assert.ok(await payButton(f).isDisabled(), 'PAY NOW waits for the signed authorisation');
  await expectAccessible(page, 'payment authorisation (payor)');
  await signingFrame(f).locator('body').waitFor();
  await signAuthorisation(f);
  await payNow(f);
  // The bank's challenge opens in the gateway's lightbox over the page.
  await page
    .frameLocator(`iframe[src^="${product.gatewayOrigin}"]`)
    .getByRole('button', { name: 'Authenticate' })
    .waitFor();
  await expectAccessible(page, '3-D Secure challenge');
  await answerChallenge(f, 'authenticate');
  const { transactionId } = await expectConfirmation(f, { amount: '$1,500.00' });
  // The payer is thanked, and the patient hears by SMS that the payor paid (issue 16, item 7).
  await page.getByText('Thank you, Grace, for paying for James Okafor.').waitFor();
  await page.getByText('We have let James Okafor know that the payment was made.').waitFor();
  await outbox.waitFor({ to: link.phone, channel: 'sms', match: /Grace Okafor has paid for your link/ });

  await expectReceipt(f, { to: payorEmail, amount: '$1,500.00', last4: '0077', transactionId });
  const saved = await admin.getLink(link.id);
  assert.equal(saved.status, 'completed');
  assert.equal(saved.payment?.amount, 1500);
});

/** The payment page's authorisation frame has no Next button of its own: sign it and wait for PAY NOW. */
async function signAuthorisation(f: Flow) {
  await signInFrame(f, signingFrame(f), { by: 'type', name: 'Grace Okafor' });
  await assertEnabled(payButton(f), 'PAY NOW after signing the authorisation', 30_000);
}

test('locked link: the type is forced to a partial payment and 500–20000 applies', async ({ admin, patient }) => {
  const link = await admin.createLink({ firstName: 'Ana', lastName: 'Silva', isPaymentLinkLocked: true });
  const { page, flow: f } = await patient(link);
  const type = page.getByLabel(/payment type/i);
  await type.waitFor();
  assert.equal(await type.inputValue(), '2', 'a locked link shows Partial Payment');
  assert.ok(await type.isDisabled(), 'and the type cannot be changed');
  for (const amount of ['499', '20001', '300']) {
    await expectAmountFeedback(f, { amount, message: 'Amount entered must be between $500 and $20,000' });
  }
  await expectAccessible(page, 'patient information (locked link)');
  await choosePayment(f, { amount: '20000' });
  await submitPatientInfo(f);
  await expectRoute(page, '/patientinvoicedetail');
  const saved = await admin.getLink(link.id);
  assert.equal(saved.payment?.amount, 20000);
  assert.equal(saved.payment?.paymentTypeId, 2, 'recorded as a partial payment');
});
