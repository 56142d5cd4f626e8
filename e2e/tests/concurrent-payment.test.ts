import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import type { Browser, BrowserContext } from 'playwright-core';
import { createLink, getLink, type TestLink } from '../support/admin.js';
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
import { setUpProduct } from '../support/suite.js';
import { DESKTOP, inSession, openSession, PHONE, saveArtifacts, type Session } from '../support/session.js';
import type { Lng } from '../support/texts.js';

/**
 * Issue 25: two browsers on one link press PAY NOW at the same moment. The first browser's sale reaches the gateway
 * and its answer is held at the gateway's origin (network control at the edge, the app untouched) while the second
 * presses PAY NOW. The second used to share the first's single-use token and be told "The card processor did not
 * answer in time… try again"; it must be told that a payment for this link is already in progress, and then be
 * shown how that payment ended.
 */
let product: RunningProduct;
let browser: Browser;
// Two browsers ask for sign-in codes for one link within seconds: the resend cooldown is not the subject.
setUpProduct((p, b) => ((product = p), (browser = b)), { OTP_RESEND_COOLDOWN_SECONDS: '0' });

/**
 * Browser A's sale (Checkout.js pay) held at the edge before it reaches the gateway, until `release()`: A has its
 * token and is paying; its outcome is not known to anyone yet.
 */
async function holdSale(context: BrowserContext) {
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
async function secondBrowser(t: TestContext, link: TestLink, lng: Lng, use: (f: Flow) => Promise<void>) {
  const second: Session = await openSession(browser, { viewport: PHONE, locale: lng === 'es' ? 'es-MX' : 'en-US' });
  try {
    const f: Flow = { page: second.page, product, link, lng };
    await openLink(f);
    await signInBySms(f, { landing: '/paymentauthorization' });
    await use(f);
    if (second.pageErrors.length) throw new Error(`The app threw:\n${second.pageErrors.join('\n')}`);
  } catch (err) {
    await saveArtifacts(`${t.name} (second browser)`, second, product, err);
    throw err;
  } finally {
    await second.context.close();
  }
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

async function approvedPayments(linkId: string): Promise<number> {
  const l = await getLink(product, linkId);
  return l.payment?.status === 'approved' ? 1 : 0;
}

test('en: the second browser is told a payment is in progress, then sees it completed; one charge', async (t) => {
  const link = await createLink(product, { firstName: 'Nora', lastName: 'Twice' });
  await inSession(t, browser, product, { viewport: DESKTOP }, async ({ page, context }) => {
    const a: Flow = { page, product, link, lng: 'en' };
    await walkToPayment(a, { type: 1, source: 1, amount: '750' });
    await secondBrowser(t, link, 'en', async (b) => {
      const sale = await holdSale(context);
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
    assert.equal(await approvedPayments(link.id), 1);
    const admin = await getLink(product, link.id);
    assert.equal(admin.status, 'completed');
  });
});

test('es: the first payment is declined; the second browser is told so and pays', async (t) => {
  const link = await createLink(product, { firstName: 'Rosa', lastName: 'Doble', language: 'es' });
  await inSession(t, browser, product, { viewport: DESKTOP }, async ({ page, context }) => {
    const a: Flow = { page, product, link, lng: 'en' };
    await walkToPayment(a, { type: 1, source: 1, amount: '500' });
    await secondBrowser(t, link, 'es', async (b) => {
      const sale = await holdSale(context);
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
    assert.equal(await approvedPayments(link.id), 1);
  });
});
