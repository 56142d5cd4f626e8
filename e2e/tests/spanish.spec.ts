import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { expectAccessible } from '../support/a11y.js';
import { uniqueEmail } from '../support/admin.js';
import {
  CARDS,
  choosePayment,
  closeModal,
  expectConfirmation,
  expectPaymentModal,
  expectReceipt,
  expectRoute,
  fillCard,
  nextStep,
  openLink,
  payNow,
  signDocumentStep,
  signInBySms,
  signInByEmail,
  submitPatientInfo,
  uploadIdStep,
  expectAmountFeedback,
  type Flow,
} from '../support/flows.js';
import { messageText } from '../support/outbox.js';
import { PHONE } from '../support/session.js';
import { test } from '../support/test.js';
import { t } from '../support/texts.js';

/**
 * The deposit journey in Spanish (?lng=es, a Spanish-speaking patient): every screen's heading is the app's Spanish
 * text (and differs from the English one), the page says lang="es", axe passes on every screen, the SMS and the
 * receipt are in Spanish, and the decline and 3-D Secure modals speak Spanish.
 */
test.use({ viewport: PHONE, locale: 'es-US' });

/** The screen speaks Spanish: lang="es", and the given key's Spanish text (not the English one) is visible. */
async function expectSpanish(page: Page, key: string, screen: string) {
  const es = t('es', key);
  assert.notEqual(es, t('en', key), `${key} is translated`);
  await page.getByText(es, { exact: false }).first().waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'es');
  await expectAccessible(page, `${screen} (es)`);
}

test('deposit journey in Spanish: screens, SMS, modals, receipt', async ({ product, admin, page }) => {
  const link = await admin.createLink({ firstName: 'Lucía', lastName: 'Fernández', language: 'es' });
  const f: Flow = { page, product, link, lng: 'es' };
  await openLink(f);
  await expectRoute(page, '/auth');
  await expectSpanish(page, 'auth.phoneTitle', 'auth');
  const sms = await signInBySms(f, { axe: true });
  assert.doesNotMatch(sms.text, /your sign-in code/i);
  assert.match(sms.text, /c[oó]digo|clave/i, `the SMS is in Spanish: ${sms.text}`);

  await expectSpanish(page, 'patientInfo.title', 'patient information');
  await expectAmountFeedback(f, { type: 1, amount: '1001', message: t('es', 'patientInfoFormFeedBackMsg') });
  await choosePayment(f, { type: 1, source: 1, amount: '250' });
  await submitPatientInfo(f);

  await expectRoute(page, '/patientinvoicedetail');
  await expectSpanish(page, 'steps:invoice.title', 'invoice');
  await signDocumentStep(f, { by: 'type' });
  await nextStep(f);
  await expectRoute(page, '/patientiddocs');
  await expectSpanish(page, 'steps:patientId.title', 'patient ID');
  await uploadIdStep(f, { seed: 21 });
  await nextStep(f);
  await expectRoute(page, '/patientcontract');
  await expectSpanish(page, 'steps:contract.title', 'contract');
  await signDocumentStep(f, { by: 'draw' });
  await nextStep(f);

  await expectRoute(page, '/paymentauthorization');
  await expectSpanish(page, 'payment:title', 'payment authorisation');
  await fillCard(f, { number: CARDS.cvvNoMatch });
  await payNow(f);
  await expectPaymentModal(f, { title: t('es', 'payment:decline.title'), lines: [t('es', 'payment:cvv.N')] });
  await expectAccessible(page, 'decline modal (es)');
  await closeModal(f);
  await fillCard(f, { number: CARDS.rejected3ds });
  await payNow(f);
  await expectPaymentModal(f, { title: t('es', 'payment:threeDS.title'), lines: [t('es', 'payment:threeDS.body')] });
  await expectAccessible(page, '3-D Secure modal (es)');
  await closeModal(f);

  await fillCard(f, { number: '4111111111111111' });
  await payNow(f);
  const { transactionId } = await expectConfirmation(f, { amount: '$250.00' });
  await expectSpanish(page, 'confirmation.title', 'confirmation');

  const receipt = await expectReceipt(f, { to: link.email, amount: '$250.00', last4: '1111', transactionId });
  assert.match(messageText(receipt), /recibo|pago/i, 'the receipt is in Spanish');
  assert.doesNotMatch(messageText(receipt), /\bYour payment\b|\bThank you\b/);
});

test('payor journey screens in Spanish: e-mail sign-in, payor ID, payor payment page', async ({
  product,
  admin,
  page,
}) => {
  const payorEmail = uniqueEmail('pagador');
  const link = await admin.createLink({
    firstName: 'Carmen',
    lastName: 'Ortiz',
    signInMethod: 'email',
    language: 'es',
    payorName: 'Diego Ortiz',
    payorEmail,
  });
  const f: Flow = { page, product, link, lng: 'es' };
  await openLink(f);
  await expectSpanish(page, 'auth.emailTitle', 'auth (e-mail)');
  const mail = await signInByEmail(f, link.email, { axe: true });
  assert.match(messageText(mail), /iniciar sesi[oó]n/i, 'the sign-in e-mail is in Spanish');
  await expectSpanish(page, 'patientInfo.title', 'patient information (payor)');
  await expectAmountFeedback(f, {
    type: 2,
    source: 2,
    amount: '450',
    message: t('es', 'patientInfoFormFeedBackMsgPartialPayment'),
  });
  await choosePayment(f, { amount: '800' });
  await submitPatientInfo(f);
  for (const route of ['/patientinvoicedetail', '/patientiddocs', '/payoriddocs', '/patientcontract']) {
    await expectRoute(page, route);
    if (route === '/payoriddocs') await expectSpanish(page, 'steps:payorId.title', 'payor ID');
    if (route.endsWith('iddocs')) await uploadIdStep(f, { seed: route.length });
    else await signDocumentStep(f, { by: 'type' });
    await nextStep(f);
  }
  await expectRoute(page, '/paymentauthorization');
  await expectSpanish(page, 'payment:authorization.heading', 'payment authorisation (payor)');
});
