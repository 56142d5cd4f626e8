import type { Page } from '@playwright/test';
import {
  answerChallenge,
  CARDS,
  choosePayment,
  expectConfirmation,
  expectReceipt,
  expectRoute,
  fillCard,
  nextStep,
  openLink,
  payNow,
  signDocumentStep,
  signInBySms,
  submitPatientInfo,
  uploadIdStep,
  type Flow,
} from './flows.js';

/**
 * A patient-paid $500 deposit up to the payment page: SMS sign-in, the invoice signed by drawing, the ID front and
 * back uploaded, the contract signed by typing.
 */
export async function depositToPaymentPage(f: Flow): Promise<void> {
  const { page } = f;
  await openLink(f);
  await signInBySms(f);
  await choosePayment(f, { type: 1, source: 1, amount: '500' });
  await submitPatientInfo(f);
  await expectRoute(page, '/patientinvoicedetail');
  await signDocumentStep(f, { by: 'draw' });
  await nextStep(f);
  await expectRoute(page, '/patientiddocs');
  await uploadIdStep(f);
  await nextStep(f);
  await expectRoute(page, '/patientcontract');
  await signDocumentStep(f, { by: 'type' });
  await nextStep(f);
  await expectRoute(page, '/paymentauthorization');
}

/**
 * One whole deposit as a patient on a phone takes it, the journey the quick start and the production rehearsal prove
 * (issue 25): SMS sign-in, patient information and a $500 deposit, the invoice signed by drawing, the ID front and
 * back uploaded, the contract signed by typing, a card that asks for the 3-D Secure challenge, the confirmation and
 * the e-mailed receipt. Returns the transaction id the confirmation shows.
 */
export async function payDepositWithChallenge(f: Flow): Promise<{ transactionId: string }> {
  await depositToPaymentPage(f);
  await fillCard(f, { number: CARDS.challenge });
  await payNow(f);
  await answerChallenge(f, 'authenticate');
  const { transactionId } = await expectConfirmation(f, { amount: '$500.00' });
  await expectReceipt(f, { to: f.link.email, amount: '$500.00', last4: '0077', transactionId });
  return { transactionId };
}

/** The link's page in the console (a signed-in staff browser) shows the payment: amount, transaction id, card. */
export async function expectPaidInConsole(
  console: Page,
  f: Flow,
  o: { transactionId: string; amount: string; last4: string },
): Promise<void> {
  await console.goto(`${f.product.baseUrl}/console/links/${f.link.id}`);
  await console
    .getByRole('heading', { level: 1, name: `${f.link.input.firstName} ${f.link.input.lastName}` })
    .waitFor();
  const payment = console.getByRole('region', { name: 'Payment', exact: true });
  await payment.getByText(o.amount).first().waitFor({ timeout: 30_000 });
  await payment.getByText(o.transactionId).waitFor();
  await payment.getByText(new RegExp(`•••• ${o.last4}$`)).waitFor();
}
