import assert from 'node:assert/strict';
import { expectAccessible } from '../support/a11y.js';
import {
  CARDS,
  choosePayment,
  expectConfirmation,
  expectNoHorizontalScroll,
  expectRoute,
  fillCard,
  nextStep,
  openLink,
  payNow,
  signDocumentStep,
  signInBySms,
  uploadIdStep,
  expectReceipt,
  expectAmountFeedback,
  submitPatientInfo,
  expectStepsCompletePage,
} from '../support/flows.js';
import { PHONE } from '../support/session.js';
import { test } from '../support/test.js';
import { t as text } from '../support/texts.js';
import { eventually } from '../support/wait.js';

/**
 * The main journey on a 360×640 phone: a patient pays a deposit after SMS sign-in, signs every document (drawn and
 * typed signatures), uploads ID photos, pays with an approved card and gets the receipt by e-mail. axe runs on every
 * screen; no screen scrolls sideways.
 */
test.use({ viewport: PHONE, isMobile: true, hasTouch: true });

test('patient pays a deposit: SMS sign-in, documents, ID, approved card, confirmation, receipt', async ({
  product,
  admin,
  page,
  openSession,
}) => {
  const link = await admin.createLink({ firstName: 'Maria', lastName: 'Garcia', signInMethod: 'sms' });
  const c = { page, product, link, lng: 'en' as const };

  await openLink(c);
  await expectRoute(page, '/auth');
  // The lookup shows the phone on file masked: its last 4 digits, never the whole number.
  const phone = page.getByLabel(text('en', 'auth.phoneLabel'));
  const shown = await eventually(
    async () => {
      const v = await phone.inputValue();
      return v.endsWith(link.phone.slice(-4)) ? v : undefined;
    },
    { message: "the masked phone's last 4 digits" },
  );
  assert.ok(shown.includes('*'), `the phone is masked: ${shown}`);
  // The digits the mask hides appear in none of the number's usual forms. (Six digits alone are not enough: the
  // practice's own number in the footer, (555) 010-0123, matched one phone in a thousand.)
  const html = await page.content();
  const national = link.phone.slice(2);
  for (const form of [
    link.phone,
    national,
    national.slice(3),
    `(${national.slice(0, 3)}) ${national.slice(3, 6)}-${national.slice(6)}`,
    `${national.slice(3, 6)}-${national.slice(6)}`,
  ]) {
    assert.ok(!html.includes(form), `the full phone number is not on the page (${form})`);
  }
  await expectAccessible(page, 'auth (SMS)');
  await expectNoHorizontalScroll(page);

  const sms = await signInBySms(c);
  assert.ok(sms.text.length <= 160, `SMS is ${sms.text.length} characters: ${sms.text}`);
  assert.match(sms.text, /code/i);

  await expectRoute(page, '/patientinfo');
  // The details on file, read-only.
  for (const [key, value] of [
    ['patientInfo.firstName', link.input.firstName],
    ['patientInfo.lastName', link.input.lastName],
    ['patientInfo.address', link.input.address],
    ['patientInfo.city', link.input.city],
    ['patientInfo.zipCode', link.input.zipCode],
    ['patientInfo.email', link.email],
  ] as const) {
    const field = page.getByLabel(text('en', key), { exact: true });
    await eventually(async () => (await field.inputValue()) === value, { message: `${key} shows ${value}` });
    assert.ok(await field.evaluate((el) => (el as HTMLInputElement).readOnly), `${key} is read-only`);
  }
  await expectAccessible(page, 'patient information');
  await expectNoHorizontalScroll(page);
  // Out of range for a deposit → the feedback card and a disabled AGREE; digits only.
  await expectAmountFeedback(c, { type: 1, amount: '100', message: 'Amount entered must be between $250 and $1000' });
  await expectAccessible(page, 'patient information with invalid amount');
  await choosePayment(c, { type: 1, source: 1, amount: '5x00' });
  await submitPatientInfo(c);

  await expectRoute(page, '/patientinvoicedetail');
  await expectNoHorizontalScroll(page);
  await signDocumentStep(c, { by: 'draw', axe: 'invoice' });
  await nextStep(c);

  await expectRoute(page, '/patientiddocs');
  await uploadIdStep(c, { axe: 'patient ID' });
  await nextStep(c);

  await expectRoute(page, '/patientcontract');
  await signDocumentStep(c, { by: 'type', axe: 'contract' });
  await nextStep(c);

  await expectRoute(page, '/paymentauthorization');
  await expectNoHorizontalScroll(page);
  // Patient-paid: name, zip, address, city and state come from the patient record.
  assert.equal(
    await page
      .getByLabel(/name on card|full name/i)
      .first()
      .inputValue(),
    'Maria Garcia',
  );
  await expectAccessible(page, 'payment authorisation');
  await fillCard(c, { number: CARDS.visaFrictionless });
  await expectAccessible(page, 'payment authorisation, filled in');
  await payNow(c);

  const { transactionId } = await expectConfirmation(c, { amount: '$500.00' });
  await expectAccessible(page, 'confirmation');
  await expectNoHorizontalScroll(page);

  // Back button neutralised on the confirmation page.
  await page.goBack().catch(() => undefined);
  await expectRoute(page, '/confirmation');
  await page.getByRole('heading', { name: text('en', 'confirmation.title') }).waitFor();

  const receipt = await expectReceipt(c, { to: link.email, amount: '$500.00', last4: '0002', transactionId });
  assert.doesNotMatch(receipt.text, /rhinoplasty/i, 'the receipt says nothing medical');

  // The same link opened again after paying: the process is complete.
  const again = await openSession({ label: 'again', viewport: PHONE, isMobile: false, hasTouch: false });
  await openLink({ page: again.page, product, link, lng: 'en' });
  await expectStepsCompletePage(again.page, 'en');
});
