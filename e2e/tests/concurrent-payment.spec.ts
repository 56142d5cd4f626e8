import assert from 'node:assert/strict';
import type { BrowserContext } from 'playwright-core';
import type { TestLink } from '../support/admin.js';
import {
  CARDS,
  assertEnabled,
  closeModal,
  expectConfirmation,
  expectPaymentModal,
  expectStepsCompletePage,
  fillCard,
  openLink,
  payButton,
  payNow,
  paymentDialog,
  say,
  signInBySms,
  walkToPayment,
  type Flow,
} from '../support/flows.js';
import type { RunningProduct } from '../support/server.js';
import { PHONE } from '../support/session.js';
import { test, type AdminApi, type OpenedSession, type SessionOptions } from '../support/test.js';
import type { Lng } from '../support/texts.js';

/**
 * Issue 25: two browsers on one link press PAY NOW at the same moment. The first browser's sale reaches the gateway
 * and its answer is held at the gateway's origin (network control at the edge, the app untouched) while the second
 * presses PAY NOW. The second used to share the first's single-use token and be told "The card processor did not
 * answer in time… try again"; it must be told that a payment for this link is already in progress, and then be
 * shown how that payment ended.
 */
// Two browsers ask for sign-in codes for one link within seconds: the resend cooldown is not the subject.
test.use({ productEnv: { OTP_RESEND_COOLDOWN_SECONDS: '0' } });

/**
 * Browser A's sale (Checkout.js pay) held at the edge before it reaches the gateway, until `release()`: A has its
 * token and is paying; its outcome is not known to anyone yet.
 */
async function holdSale(product: RunningProduct, context: BrowserContext) {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((r) => (release = r));
  let sent: () => void = () => undefined;
  const requested = new Promise<void>((r) => (sent = r));
  await context.route(`${product.gatewayOrigin}/hosted-payments/process`, async (route) => {
    sent();
    await gate;
    await route.continue();
  });
  return { requested, release };
}

/** A second browser on the same link: its own sign-in (own session), resumed at the payment page. */
async function secondBrowser(
  openSession: (options?: SessionOptions) => Promise<OpenedSession>,
  product: RunningProduct,
  link: TestLink,
  lng: Lng,
  use: (f: Flow) => Promise<void>,
) {
  const second = await openSession({
    label: 'second browser',
    viewport: PHONE,
    locale: lng === 'es' ? 'es-MX' : 'en-US',
  });
  const f: Flow = { page: second.page, product, link, lng };
  await openLink(f);
  await signInBySms(f, { landing: '/paymentauthorization' });
  await use(f);
  await second.close();
}

/**
 * The second browser's PAY NOW: the page says a payment is in progress and keeps PAY NOW busy. A modal instead (the
 * old answer: the gateway refusing the first browser's token) fails with its text.
 */
async function expectInProgress(f: Flow): Promise<void> {
  const notice = f.page.getByRole('status').filter({ hasText: say(f.lng, 'payment:paymentInProgress') });
  const dialog = paymentDialog(f);
  const left = f.page
    .waitForURL((u) => u.pathname !== '/paymentauthorization', { waitUntil: 'commit' })
    .then(() => 'left' as const)
    .catch(() => 'gone' as const);
  const shown = notice
    .or(dialog)
    .first()
    .waitFor()
    .then(() => 'shown' as const)
    .catch(() => 'gone' as const);
  const first = await Promise.race([left, shown]);
  if (first === 'left') {
    throw new Error(`The second browser was not told: it went on to ${new URL(f.page.url()).pathname}`);
  }
  if (first === 'gone') throw new Error('Neither the in-progress notice nor a modal appeared in the second browser');
  if (await dialog.isVisible()) {
    throw new Error(`The second browser got a modal, not the in-progress notice: ${(await dialog.innerText()).trim()}`);
  }
  assert.ok(await payButton(f).isDisabled(), 'PAY NOW stays busy while the other payment is in progress');
}

async function approvedPayments(admin: AdminApi, linkId: string): Promise<number> {
  const l = await admin.getLink(linkId);
  return l.payment?.status === 'approved' ? 1 : 0;
}

test('en: the second browser is told a payment is in progress, then sees it completed; one charge', async ({
  product,
  admin,
  page,
  context,
  openSession,
}) => {
  const link = await admin.createLink({ firstName: 'Nora', lastName: 'Twice' });
  const a: Flow = { page, product, link, lng: 'en' };
  await walkToPayment(a, { type: 1, source: 1, amount: '750' });
  await secondBrowser(openSession, product, link, 'en', async (b) => {
    const sale = await holdSale(product, context);
    await fillCard(a, { number: CARDS.visaFrictionless });
    await payNow(a);
    await sale.requested; // the first browser is paying: its sale is on its way to the gateway
    await fillCard(b, { number: CARDS.mastercardFrictionless });
    await payNow(b);
    await expectInProgress(b);
    sale.release();
    await expectConfirmation(a, { amount: '$750.00' });
    // The second browser shows how it ended: the link's payment was made (the spec's steps-complete page).
    await expectStepsCompletePage(b.page, 'en');
    assert.equal(await paymentDialog(b).count(), 0, 'no modal in the second browser');
  });
  assert.equal(await approvedPayments(admin, link.id), 1);
  const saved = await admin.getLink(link.id);
  assert.equal(saved.status, 'completed');
});

test('es: the first payment is declined; the second browser is told so and pays', async ({
  product,
  admin,
  page,
  context,
  openSession,
}) => {
  const link = await admin.createLink({ firstName: 'Rosa', lastName: 'Doble', language: 'es' });
  const a: Flow = { page, product, link, lng: 'en' };
  await walkToPayment(a, { type: 1, source: 1, amount: '500' });
  await secondBrowser(openSession, product, link, 'es', async (b) => {
    const sale = await holdSale(product, context);
    await fillCard(a, { number: CARDS.declined });
    await payNow(a);
    await sale.requested;
    await fillCard(b, { number: CARDS.visaFrictionless });
    await payNow(b);
    await expectInProgress(b);
    sale.release();
    await expectPaymentModal(a, {
      title: 'Card Declined',
      lines: ['Unable to process payment.', 'DECLINED'],
    });
    // The first payment ended without a charge being recorded: the second browser may pay, and is told why.
    await b.page
      .getByRole('status')
      .filter({ hasText: say('es', 'payment:paymentInProgressEnded') })
      .waitFor();
    await assertEnabled(payButton(b), 'PAY NOW in the second browser');
    await payNow(b);
    await expectConfirmation(b, { amount: '$500.00' });
    await closeModal(a);
  });
  assert.equal(await approvedPayments(admin, link.id), 1);
});
