/**
 * Saves a screenshot of every screen of the patient app at 390×844 (an iPhone-sized phone) into docs/screens/.
 * Starts the product the way `npm start` runs it (sandbox providers, fresh database, free ports) and walks the
 * journeys the browser suite walks. Run: `npm run build && npm run screenshots`.
 * Then the practice console at 1280×800 (the board and a link's page, 40-*, 41-*). `npm run screenshots -- console`
 * saves only the console's.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { admin, cancelLink, createLink, expireLink, type TestLink } from '../e2e/support/admin.js';
import { launchBrowser } from '../e2e/support/browser.js';
import { ensureChromium } from '../e2e/support/chromium.js';
import {
  CARDS,
  answerChallenge,
  choosePayment,
  expectConfirmation,
  expectPaymentModal,
  expectRoute,
  fillCard,
  nextButton,
  nextStep,
  openLink,
  payNow,
  signDocumentStep,
  signInBySms,
  signInByEmail,
  signInFrame,
  signingFrame,
  submitPatientInfo,
  uploadIdStep,
  walkToPayment,
  closeModal,
  assertEnabled,
  payButton,
  type Flow,
} from '../e2e/support/flows.js';
import { consoleSignIn, demoCoordinator } from '../e2e/support/console.js';
import { ROOT, startProduct } from '../e2e/support/server.js';
import { SCREENSHOT_PHONE } from '../e2e/support/session.js';
import { t } from '../e2e/support/texts.js';

const OUT = path.join(ROOT, 'docs/screens');

async function main() {
  process.env.CHROMIUM_PATH = ensureChromium();
  if (!fs.existsSync(path.join(ROOT, 'apps/web/dist/index.html'))) {
    console.error('The web app is not built: run `npm run build` first.');
    process.exit(1);
  }
  fs.mkdirSync(OUT, { recursive: true });
  const product = await startProduct({ OTP_RESEND_COOLDOWN_SECONDS: '0' });
  const browser = await launchBrowser();
  const saved: string[] = [];
  const newPage = async (locale = 'en-US') => {
    const context = await browser.newContext({
      viewport: SCREENSHOT_PHONE,
      deviceScaleFactor: 1,
      isMobile: true,
      hasTouch: true,
      locale,
    });
    return context.newPage();
  };
  /** Waits for fonts, spinners and frames to settle on what the user sees, then saves the screen. */
  const shot = async (page: Page, name: string, opts: { fullPage?: boolean } = {}) => {
    await page.evaluate(() => document.fonts.ready);
    await page
      .locator('[aria-busy="true"], .spinner-border')
      .first()
      .waitFor({ state: 'hidden', timeout: 10_000 })
      .catch(() => undefined);
    const file = path.join(OUT, `${name}.png`);
    await page.screenshot({ path: file, fullPage: opts.fullPage ?? true, animations: 'disabled', caret: 'hide' });
    saved.push(path.relative(ROOT, file));
    console.log(`  saved ${path.relative(ROOT, file)}`);
  };

  const consoleOnly = process.argv.includes('console');
  try {
    // --- the practice console: the board with patients at different steps, and one link's page
    {
      const paying = await createLink(product, { firstName: 'Sofia', lastName: 'Reyes', phone: '+13105550199' });
      // Sent by SMS as a coordinator would, so the link's page shows the message and its delivery status.
      await admin(product, 'POST', `/links/${paying.id}/send`, { channel: 'sms' });
      const page = await newPage();
      const f: Flow = { page, product, link: paying, lng: 'en' };
      await openLink(f);
      await signInBySms(f);
      await choosePayment(f, { type: 1, source: 1, amount: '750' });
      await submitPatientInfo(f);
      await expectRoute(page, '/patientinvoicedetail');
      await signDocumentStep(f, { by: 'type' });
      await nextStep(f);
      await expectRoute(page, '/patientiddocs');
      await page.context().close();

      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
      const staff = await context.newPage();
      await consoleSignIn(staff, product, await demoCoordinator(product));
      await staff
        .locator(`tr[data-link-id="${paying.id}"]`)
        .getByText(/^Patient ID /)
        .waitFor({ timeout: 30_000 });
      await shot(staff, '40-console-board', { fullPage: false });
      await staff.goto(`${product.baseUrl}/console/links/${paying.id}`);
      await staff.getByRole('heading', { level: 1, name: 'Sofia Reyes' }).waitFor();
      await staff.getByRole('list', { name: 'Timeline' }).locator('li').first().waitFor();
      await staff.getByRole('region', { name: 'Documents' }).getByRole('listitem').first().waitFor();
      await staff.getByRole('list', { name: 'Messages sent for this link' }).getByText('Delivered').first().waitFor();
      await shot(staff, '41-console-link-detail');
      await context.close();
    }
    if (consoleOnly) return;

    // --- deposit journey (patient pays, SMS sign-in)
    {
      const page = await newPage();
      const link = await createLink(product, {
        firstName: 'Maria',
        lastName: 'Garcia',
        phone: '+13105550142',
        email: 'maria.garcia@example.com',
      });
      const f: Flow = { page, product, link, lng: 'en' };
      await openLink(f);
      await page.getByRole('button', { name: t('en', 'auth.getCode') }).waitFor();
      await shot(page, '01-auth-sms');
      await signInBySms(f);
      await page.getByLabel(t('en', 'patientInfo.amount')).waitFor();
      await shot(page, '03-patient-info');
      await choosePayment(f, { type: 1, source: 1, amount: '100' });
      await page.getByText(t('en', 'patientInfoFormFeedBackMsg')).first().waitFor();
      await shot(page, '04-patient-info-invalid-amount');
      await choosePayment(f, { amount: '500' });
      await submitPatientInfo(f);
      await expectRoute(page, '/patientinvoicedetail');
      await signingFrame(f).getByRole('button').first().waitFor();
      await shot(page, '05-invoice');
      await signDocumentStep(f, { by: 'type' });
      await shot(page, '06-invoice-signed');
      await nextStep(f);
      await expectRoute(page, '/patientiddocs');
      await signingFrame(f).getByRole('button').first().waitFor();
      await shot(page, '07-patient-id');
      await uploadIdStep(f, { seed: 1 });
      await nextStep(f);
      await expectRoute(page, '/patientcontract');
      await signingFrame(f).getByRole('button').first().waitFor();
      // The contract's text on a phone (issue 16): wait for it, and for the frame to take its page's height.
      await signingFrame(f).locator('#pdf-text h2').first().waitFor();
      await signingFrame(f).locator('[aria-busy="true"]').first().waitFor({ state: 'detached', timeout: 30_000 });
      await page.waitForFunction(() => (document.querySelector('.document-frame-wrap')?.clientHeight ?? 0) > 900);
      // The first screen only: a full-page capture does not paint a cross-origin frame beyond the first screen.
      await shot(page, '08-contract', { fullPage: false });
      await signDocumentStep(f, { by: 'draw' });
      await nextStep(f);
      await expectRoute(page, '/paymentauthorization');
      await payButton(f).waitFor();
      await shot(page, '09-payment');
      await fillCard(f, { number: CARDS.declined });
      await payNow(f);
      await expectPaymentModal(f, { title: t('en', 'payment:decline.title'), lines: ['DECLINED'] });
      await shot(page, '11-card-declined', { fullPage: false }); // a modal over the page, as the phone shows it
      await closeModal(f);
      await fillCard(f, { number: CARDS.challenge });
      await payNow(f);
      await page.frameLocator(`iframe[src^="${product.gatewayOrigin}"]`).getByRole('button').first().waitFor();
      await shot(page, '12-3ds-challenge', { fullPage: false }); // a modal over the page, as the phone shows it
      await answerChallenge(f, 'authenticate');
      await expectConfirmation(f, { amount: '$500.00' });
      await shot(page, '13-confirmation');
      await page.context().close();
      // The link again, after paying.
      const again = await newPage();
      await openLink({ ...f, page: again });
      await expectRoute(again, '/stepscomplete');
      await shot(again, '22-steps-complete');
      await again.context().close();
    }
    // --- SMS code sent
    {
      const page = await newPage();
      const link = await createLink(product);
      await openLink({ page, product, link, lng: 'en' });
      await page.getByRole('button', { name: t('en', 'auth.getCode') }).click();
      await page.getByText(t('en', 'auth.codeSent')).first().waitFor();
      await shot(page, '02-auth-code-sent');
      await page.context().close();
    }
    // --- payor pays, e-mail sign-in
    {
      const page = await newPage();
      const payorEmail = 'grace.okafor@example.com';
      const link = await createLink(product, {
        firstName: 'James',
        lastName: 'Okafor',
        email: 'james.okafor@example.com',
        signInMethod: 'email',
        payorName: 'Grace Okafor',
        payorEmail,
      });
      const f: Flow = { page, product, link, lng: 'en' };
      await openLink(f);
      await page.getByLabel(t('en', 'auth.emailLabel')).waitFor();
      await shot(page, '14-auth-email');
      await signInByEmail(f);
      await choosePayment(f, { type: 2, source: 2, amount: '1500' });
      await shot(page, '15-patient-info-payor');
      await submitPatientInfo(f);
      for (let i = 0; i < 6 && new URL(page.url()).pathname !== '/paymentauthorization'; i++) {
        const route = new URL(page.url()).pathname;
        await nextButton(f).waitFor();
        if (route === '/payoriddocs') {
          await signingFrame(f).getByRole('button').first().waitFor();
          await shot(page, '16-payor-id');
        }
        if (route.endsWith('iddocs')) await uploadIdStep(f, { seed: 30 + i });
        else await signDocumentStep(f, { by: 'type' });
        await nextStep(f);
      }
      await expectRoute(page, '/paymentauthorization');
      await fillCard(f, { number: CARDS.visaFrictionless, name: 'Grace Okafor', payorEmail });
      await signInFrame(f, signingFrame(f), { by: 'type', name: 'Grace Okafor' });
      await assertEnabled(payButton(f), 'PAY NOW');
      await shot(page, '17-payment-payor');
      await page.context().close();
    }
    // --- 3-D Secure failure modal
    {
      const page = await newPage();
      const link = await createLink(product);
      const f: Flow = { page, product, link, lng: 'en' };
      await walkToPayment(f, { type: 1, source: 1, amount: '300' });
      await fillCard(f, { number: CARDS.rejected3ds });
      await payNow(f);
      await expectPaymentModal(f, { title: t('en', 'payment:threeDS.title'), lines: [] });
      await shot(page, '18-3ds-failed', { fullPage: false }); // a modal over the page, as the phone shows it
      await page.context().close();
    }
    // --- link states and error pages
    {
      const page = await newPage();
      const expired = await createLink(product);
      await expireLink(product, expired.id);
      const cancelled = await createLink(product);
      await cancelLink(product, cancelled.id);
      const states: [string, string, string][] = [
        [expired.url, '/linkexpired', '20-link-expired'],
        [cancelled.url, '/linkcancelled', '21-link-cancelled'],
        [`${product.baseUrl}/auth?id=${'x'.repeat(22)}`, '/notauthorized', '23-not-authorized'],
        [`${product.baseUrl}/auth`, '/forbidden', '24-forbidden'],
        [`${product.baseUrl}/no-such-page`, '/no-such-page', '25-not-found'],
      ];
      for (const [url, route, name] of states) {
        await page.goto(url);
        await expectRoute(page, route);
        await page.getByRole('heading').first().waitFor();
        await shot(page, name);
      }
      await page.context().close();
    }
    // --- Spanish
    {
      const page = await newPage('es-US');
      const link: TestLink = await createLink(product, {
        firstName: 'Lucía',
        lastName: 'Fernández',
        phone: '+13055550187',
        email: 'lucia.fernandez@example.com',
        language: 'es',
      });
      const f: Flow = { page, product, link, lng: 'es' };
      await openLink(f);
      await page.getByRole('button', { name: t('es', 'auth.getCode') }).waitFor();
      await shot(page, '30-auth-sms-es');
      await signInBySms(f);
      await page.getByLabel(t('es', 'patientInfo.amount')).waitFor();
      await shot(page, '31-patient-info-es');
      await page.context().close();
    }
    const demo = await admin<{ links: unknown[] }>(product, 'GET', '/links');
    console.log(`\n${saved.length} screenshots in docs/screens/ (${demo.links.length} links in the sandbox).`);
  } finally {
    await browser.close();
    await product.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
