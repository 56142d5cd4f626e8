import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import {
  CARDS,
  choosePayment,
  expectConfirmation,
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
} from '../support/flows.js';
import { test } from '../support/test.js';

/**
 * The deposit journey by keyboard alone (WCAG 2.1.1): Tab to reach every control, Enter/Space to press, typed
 * signatures (WCAG 2.5.7). Not one mouse click. Focus lands on each new page's heading.
 */
async function expectHeadingFocused(page: Page) {
  await page.waitForFunction(() => {
    const el = document.activeElement;
    return !!el && /^H[1-2]$/.test(el.tagName);
  });
}

test('deposit journey by keyboard only, typed signatures, attempted 3-D Secure card', async ({
  product,
  admin,
  page,
}) => {
  const link = await admin.createLink({ firstName: 'Noah', lastName: 'Williams' });
  const f: Flow = { page, product, link, lng: 'en', keyboard: true };
  // Any mouse click would be a bug in this test: make it fail loudly.
  await page.addInitScript(() => {
    window.addEventListener(
      'mousedown',
      (e) => {
        if (e.isTrusted) (window as unknown as { __mouseUsed: boolean }).__mouseUsed = true;
      },
      true,
    );
  });
  await openLink(f);
  await signInBySms(f);
  await expectHeadingFocused(page);
  await choosePayment(f, { type: 1, source: 1, amount: '1000' });
  await submitPatientInfo(f);

  await expectRoute(page, '/patientinvoicedetail');
  await expectHeadingFocused(page);
  await signDocumentStep(f, { by: 'type' });
  await nextStep(f);
  await expectRoute(page, '/patientiddocs');
  await uploadIdStep(f, { seed: 11 });
  await nextStep(f);
  await expectRoute(page, '/patientcontract');
  await signDocumentStep(f, { by: 'type' });
  await nextStep(f);

  await expectRoute(page, '/paymentauthorization');
  await fillCard(f, { number: CARDS.attempted });
  await payNow(f);
  await expectConfirmation(f, { amount: '$1,000.00' });
  const mouse = await page.evaluate(() => (window as unknown as { __mouseUsed?: boolean }).__mouseUsed ?? false);
  assert.equal(mouse, false, 'the journey used no mouse');
});
