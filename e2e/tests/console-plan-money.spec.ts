import assert from 'node:assert/strict';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { cardOnFileAgreement } from '@paylink/shared';
import { expectAccessible } from '../support/a11y.js';
import { CARDS, expectConfirmation, fillCard, payNow, sayRe, type Flow } from '../support/flows.js';
import { depositToPaymentPage } from '../support/journeys.js';
import { PHONE, SCREENSHOT_PHONE } from '../support/session.js';
import { test } from '../support/test.js';

/**
 * Issue 41, items 4 and 10: a plan link's money as billing reads it on a 390 px phone, in English and Spanish. The
 * patient pays a $500 deposit of a $2,000 quote whose $1,500 balance is 2 monthly instalments of $750; both are
 * charged ("Charge now") and the first is voided. The link page's money card counts the deposit and the instalments
 * ("$750.00 of $2,000.00 refunded"; before: "$0.00 of $500.00 refunded · Void $750.00") and names the instalment the
 * void gave back; the Payments screen lists the deposit and each instalment charge with its number, and its totals
 * the same money, kept after refunds.
 */
test.use({ viewport: PHONE, isMobile: true, hasTouch: true });

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

const WORDS = {
  en: {
    card: 'Refunds and evidence',
    refundedOf: '$750.00 of $2,000.00 refunded',
    plan: 'Deposit and installments: $2,000.00 charged, $1,250.00 kept.',
    voidLine: /Void \$750\.00 · installment 1 of 2 · Done/,
    payments: 'Payments',
    first: 'Installment 1 of 2',
    second: 'Installment 2 of 2',
    kept: /\$1,250\.00 kept after refunds/,
  },
  es: {
    card: 'Reembolsos y pruebas',
    refundedOf: '$750.00 de $2,000.00 reembolsados',
    plan: 'Depósito y cuotas: $2,000.00 cobrados, $1,250.00 retenidos.',
    voidLine: /Anulación \$750\.00 · cuota 1 de 2 · Hecho/,
    payments: 'Pagos',
    first: 'Cuota 1 de 2',
    second: 'Cuota 2 de 2',
    kept: /\$1,250\.00 retenido tras los reembolsos/,
  },
} as const;

/** No element wider than the phone: nothing scrolls sideways but the tables that are meant to. */
async function fitsThePhone(page: Page, what: string) {
  const wide = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(wide <= 0, `${what}: the page scrolls ${wide}px sideways`);
}

test('billing reads a plan link’s money: the money card and Payments count the deposit and each instalment, EN and ES at 390 px', async ({
  admin,
  page,
  product,
  staff,
}, testInfo) => {
  const link = await admin.createLink({
    language: 'en',
    lastName: `Planmoney${Date.now() % 100000}`,
    plan: { total: 2000, kind: 'installments', count: 2, every: 'month', firstDueOn: day(30) },
  });
  const f: Flow = { page, product, link, lng: 'en' };
  await depositToPaymentPage(f);
  const title = cardOnFileAgreement.en({
    practice: '',
    practicePhone: '',
    practiceEmail: '',
    schedule: [],
    noticeDays: 7,
    card: null,
  }).title;
  await page.getByRole('group', { name: title }).waitFor();
  await fillCard(f, { number: CARDS.visaFrictionless });
  await page.getByRole('checkbox', { name: sayRe('en', 'payment:plan.agree') }).check();
  await payNow(f);
  await expectConfirmation(f, { amount: '$500.00' });

  for (const n of [1, 2]) {
    const charged = await admin.request<{ outcome: string }>(
      'POST',
      `/links/${link.id}/plan/installments/${n}/charge`,
      {},
    );
    assert.equal(charged.outcome, 'paid', `instalment ${n} charged`);
  }
  await admin.request('POST', `/links/${link.id}/plan/installments/1/refund`, { reason: 'Charged before the date' });

  // Kept with the run's artifacts; E2E_SCREENSHOT_DIR keeps them after a passing run too, to look at.
  const shot = (name: string) => path.join(process.env.E2E_SCREENSHOT_DIR ?? testInfo.outputPath(), name);
  const billing = await admin.createStaff('billing');
  for (const lng of ['en', 'es'] as const) {
    const w = WORDS[lng];
    const { page: console, close } = await staff(billing, {
      label: `billing ${lng}`,
      lng,
      viewport: SCREENSHOT_PHONE,
      isMobile: true,
      hasTouch: true,
    });
    await console.goto(`${product.baseUrl}/console/links/${link.id}`);
    const card = console.getByRole('region', { name: w.card });
    await card.getByText(w.refundedOf).waitFor();
    await card.getByText(w.plan).waitFor();
    await card.getByRole('listitem').filter({ hasText: w.voidLine }).waitFor();
    await card.scrollIntoViewIfNeeded();
    await fitsThePhone(console, `link page (${lng})`);
    await expectAccessible(console, `console plan money card (${lng})`);
    await card.screenshot({ path: shot(`money-card-${lng}.png`) });

    await console.goto(`${product.baseUrl}/console/payments?q=${encodeURIComponent(link.input.lastName!)}`);
    await console.getByRole('heading', { level: 1, name: w.payments }).waitFor();
    const rows = console.getByRole('row').filter({ hasText: link.input.lastName! });
    await rows.filter({ hasText: w.first }).waitFor();
    await rows.filter({ hasText: w.second }).waitFor();
    assert.equal(await rows.count(), 3, 'the deposit and the two instalment charges');
    await console.getByRole('heading', { level: 2 }).filter({ hasText: w.kept }).waitFor();
    await fitsThePhone(console, `payments (${lng})`);
    await expectAccessible(console, `console payments with instalments (${lng})`);
    await console.screenshot({ path: shot(`payments-${lng}.png`), fullPage: true });
    await close();
  }
});
