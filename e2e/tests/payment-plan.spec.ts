import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import assert from 'node:assert/strict';
import type { Page } from '@playwright/test';
import { cardOnFileAgreement, planSchedule, planScheduleLine } from '@paylink/shared';
import { adminToken, uniqueEmail, uniquePhone, type TestLink } from '../support/admin.js';
import type { RunningProduct } from '../support/server.js';
import { expectAccessible } from '../support/a11y.js';
import {
  CARDS,
  choosePayment,
  expectConfirmation,
  expectRoute,
  fillCard,
  openLink,
  payButton,
  payNow,
  say,
  sayRe,
  signInBySms,
  signingFrame,
  submitPatientInfo,
  type Flow,
} from '../support/flows.js';
import { depositToPaymentPage } from '../support/journeys.js';
import { messageText, waitForMessage } from '../support/outbox.js';
import { PHONE, SCREENSHOT_PHONE } from '../support/session.js';
import { test } from '../support/test.js';

/**
 * Issue 28: deposit today, balance before surgery. The seeded coordinator creates, in the console, a link with a
 * $2,000 quote and its balance due on one date, starting from the practice's default plan "Balance 21 days before
 * the surgery date"; the patient pays a $500 deposit on a phone, ticking the card-on-file agreement that shows the
 * $1,500 charge to come; the confirmation shows it; the scheduler (run at chosen times, as `paylink plans run --now`
 * does) sends the notice 7 days before and charges the balance once on the due date; the console shows the plan paid
 * with the instalment's history.
 */
test.use({ viewport: PHONE, isMobile: true, hasTouch: true });

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** The coordinator's part, in the console's new-link form: the patient, the total and the balance date. */
async function createPlanLinkInConsole(
  console: Page,
  o: { lng: 'en' | 'es'; surgeryDate: string; dueOn: string },
): Promise<TestLink> {
  const input = {
    firstName: 'Marta',
    lastName: `Plan${Date.now() % 100000}`,
    address: '1200 Ocean Avenue',
    city: 'Santa Monica',
    state: 'CA',
    zipCode: '90401',
    language: o.lng,
  };
  const phone = uniquePhone();
  const email = uniqueEmail();
  await console.getByRole('link', { name: 'New link' }).click();
  await console.getByRole('heading', { level: 1, name: 'New link' }).waitFor();
  await console.getByLabel('First name').fill(input.firstName);
  await console.getByLabel('Last name').fill(input.lastName);
  await console.getByLabel('Mobile phone').fill(`(${phone.slice(2, 5)}) ${phone.slice(5, 8)}-${phone.slice(8)}`);
  await console.getByLabel('E-mail', { exact: true }).fill(email);
  await console.getByLabel('Address').fill(input.address);
  await console.getByLabel('City').fill(input.city);
  await console.getByLabel('State', { exact: true }).fill(input.state);
  await console.getByLabel('ZIP code').fill(input.zipCode);
  await console.getByLabel('Procedure (shown to the patient)').fill('Rhinoplasty');
  await console.getByLabel('The patient signs in with').selectOption({ label: 'A code by text message (SMS)' });
  await console.getByLabel('Language of messages').selectOption(o.lng);
  // The practice's default plan fills the plan; the surgery date sets the balance date 21 days before it.
  await console
    .getByLabel('Start from a default plan')
    .selectOption({ label: 'Balance 21 days before the surgery date' });
  await console.getByLabel('Surgery date').fill(o.surgeryDate);
  assert.equal(await console.getByLabel('After the deposit').inputValue(), 'single');
  assert.equal(await console.getByLabel('Balance date').inputValue(), o.dueOn);
  await console.getByLabel('Total price (US dollars)').fill('2000');
  await console.getByRole('button', { name: 'Create link' }).click();
  await console.getByText(`Link created for ${input.firstName} ${input.lastName}.`).waitFor();
  const url = (await console.getByTestId('link-url').textContent())!.trim();
  const id = new URL(url).searchParams.get('id')!;
  assert.ok(id, 'the personal link carries the id');
  return { id, url, phone, email, payorEmail: undefined, input };
}

for (const lng of ['en', 'es'] as const) {
  test(`${lng}: a plan made in the console; the deposit stores the card after its own agreement; the balance is noticed, then charged once`, async ({
    product,
    admin,
    page,
    staff,
  }) => {
    const dueOn = day(40);
    const { page: console } = await staff('demo', { viewport: { width: 1280, height: 900 } });
    const link = await createPlanLinkInConsole(console, { lng, surgeryDate: day(61), dueOn });
    const stored0 = await admin.request<{ plan: { total: number; kind: string; installments: { dueOn: string }[] } }>(
      'GET',
      `/links/${link.id}`,
    );
    assert.equal(stored0.plan.total, 2000);
    assert.deepEqual(
      stored0.plan.installments.map((i) => i.dueOn),
      [dueOn],
    );
    const f: Flow = { page, product, link, lng };

    await depositToPaymentPage(f);

    // The agreement, with the charge to come, above PAY NOW; PAY NOW waits for its own box.
    const title = cardOnFileAgreement[lng]({
      practice: '',
      practicePhone: '',
      practiceEmail: '',
      schedule: [],
      noticeDays: 7,
      card: null,
    }).title;
    const agreement = page.getByRole('group', { name: title });
    await agreement.waitFor();
    await agreement.getByText('$1,500.00').first().waitFor();
    await fillCard(f, { number: CARDS.visaFrictionless });
    await agreement.getByText(/0002/).first().waitFor();
    assert.equal(await payButton(f).isEnabled(), false, 'PAY NOW waits for the card-on-file agreement');
    await page.getByRole('checkbox', { name: sayRe(lng, 'payment:plan.agree') }).check();
    await payNow(f);
    await expectConfirmation(f, { amount: '$500.00' });
    await page.getByText(say(lng, 'common:confirmation.nextCharges')).first().waitFor();
    await page.getByText('$1,500.00').first().waitFor();

    const stored = await admin.request<{
      plan: { status: string; installments: { status: string; amount: number }[] };
    }>('GET', `/links/${link.id}`);
    assert.equal(stored.plan.status, 'active');
    assert.deepEqual(
      stored.plan.installments.map((i) => [i.amount, i.status]),
      [[1500, 'scheduled']],
    );

    // 7 days before the due date: the notice, by SMS, with the amount and the card's last four.
    await admin.request('POST', '/plans/run', { now: `${day(33)}T17:00:00Z` });
    const notice = await waitForMessage(product, {
      to: link.phone,
      channel: 'sms',
      match: (m) => messageText(m).includes('1,500.00') && messageText(m).includes('0002'),
    });
    assert.ok(messageText(notice).includes(link.id), 'the notice links to the plan');
    // The due date: one charge; a second pass charges nothing more.
    await admin.request('POST', '/plans/run', { now: `${dueOn}T17:00:00Z` });
    await admin.request('POST', '/plans/run', { now: `${dueOn}T18:00:00Z` });
    const paid = await admin.request<{ plan: { status: string; installments: { status: string }[] } }>(
      'GET',
      `/links/${link.id}`,
    );
    assert.deepEqual(
      paid.plan.installments.map((i) => i.status),
      ['paid'],
    );
    assert.equal(paid.plan.status, 'completed');

    // The console shows the plan paid, with the instalment's history: the notice, then the charge.
    await console.goto(`${product.baseUrl}/console/links/${link.id}`);
    const card = console.getByTestId('plan-card');
    await card.getByText('Paid in full').waitFor();
    await card.getByRole('cell', { name: 'Paid', exact: true }).waitFor();
    await card.getByText('Installment 1').click();
    await card.getByText(/Patient told of the charge on/).waitFor();
    await card.getByText(/Paid \$1,500\.00, transaction /).waitFor();

    // The dispute evidence pack holds the agreement in the words the payment page showed (decision 0214).
    const pack = await evidenceText(product, link.id);
    const words =
      lng === 'es' ? /Autorizo a .* a guardar Visa terminada en 0002/ : /I authorize .* to keep Visa ending in 0002 on/;
    assert.match(pack.replace(/\s+/g, ' '), words, 'the evidence pack quotes the accepted agreement');
  });
}

/**
 * Issue 41, item 5: on a plan link the patient information page and the invoice name the quote's total, today's
 * deposit and each later charge (date and amount) and the card they go to, before the payment page; at 390 px, in
 * English and Spanish, with a screenshot of each (see `shot`).
 */
test.describe('the plan before the payment page', () => {
  test.use({ viewport: SCREENSHOT_PHONE });
  for (const lng of ['en', 'es'] as const) {
    test(`${lng}: the patient information page and the invoice name the total, today's deposit and each later charge`, async ({
      product,
      admin,
      page,
    }, testInfo) => {
      const firstDueOn = day(45);
      const link = await admin.createLink({
        firstName: 'Lucía',
        lastName: `Total${Date.now() % 100000}`,
        language: lng,
        plan: { total: 2000, kind: 'installments', count: 3, every: 'month', firstDueOn },
      });
      const f: Flow = { page, product, link, lng };
      // Kept with a failure's artifacts, or in E2E_SCREENSHOTS (a folder) to look at after a passing run.
      const dir = process.env.E2E_SCREENSHOTS;
      const shot = (name: string) =>
        page.screenshot({ path: dir ? path.join(dir, name) : testInfo.outputPath(name), fullPage: true });
      const locale = lng === 'es' ? 'es-US' : 'en-US';
      const lines = planSchedule({ kind: 'installments', count: 3, every: 'month', firstDueOn }, 150_000).map((i) =>
        planScheduleLine(i, locale),
      );
      const card = lng === 'es' ? 'la tarjeta con la que pague el depósito' : 'the card you pay the deposit with';
      await openLink(f);
      await signInBySms(f);
      await choosePayment(f, { type: 1, source: 1, amount: '500' });
      const summary = page.getByTestId('plan-summary');
      await summary.getByRole('heading', { name: say(lng, 'patientInfo.plan.heading') }).waitFor();
      await summary.getByText('$2,000.00').waitFor();
      await summary.getByText('$500.00', { exact: true }).waitFor();
      await summary.getByText(card, { exact: false }).waitFor();
      for (const line of lines) await summary.getByRole('listitem').filter({ hasText: line }).waitFor();
      const fits = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
      assert.ok(fits, 'the patient information page fits 390 px');
      await expectAccessible(page, `patient information with a plan (${lng})`);
      await summary.scrollIntoViewIfNeeded();
      await shot(`patientinfo-plan-${lng}.png`);

      await submitPatientInfo(f);
      await expectRoute(page, '/patientinvoicedetail');
      const frame = signingFrame(f);
      await frame.getByRole('heading', { name: lng === 'es' ? 'Su plan de pagos' : 'Your payment plan' }).waitFor();
      for (const line of lines) await frame.getByText(line).waitFor();
      await frame.getByText(card, { exact: false }).waitFor();
      await frame
        .getByText(/\$2,000\.00/)
        .first()
        .waitFor();
      assert.equal(await frame.getByText(/invoiced separately|por separado/).count(), 0, 'no "invoiced separately"');
      await shot(`invoice-plan-${lng}.png`);
    });
  }
});

/** The text of a link's dispute evidence pack, as the billing office downloads it (poppler's pdftotext). */
async function evidenceText(product: RunningProduct, linkId: string): Promise<string> {
  const r = await fetch(`${product.baseUrl}/api/admin/links/${linkId}/evidence.pdf`, {
    headers: { authorization: `Bearer ${await adminToken(product)}` },
  });
  assert.equal(r.status, 200, 'the evidence pack downloads');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plan-evidence-'));
  try {
    const file = path.join(dir, 'evidence.pdf');
    fs.writeFileSync(file, Buffer.from(await r.arrayBuffer()));
    return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test('an admin keeps the default plans in Settings; a coordinator starts from one on the new-link form, in Spanish too', async ({
  staff,
}) => {
  const wide = { viewport: { width: 1280, height: 900 } };
  const { page: settings } = await staff('admin', wide);
  await settings.getByRole('link', { name: 'Settings' }).click();
  const section = settings.getByRole('region', { name: 'Default payment plans' });
  await section.getByLabel('Days before the surgery date').waitFor();
  // Paylink's two examples stay (the other tests of this file start from the first); a third, named one is added.
  await section.getByRole('button', { name: 'Add a plan' }).click();
  const third = section.getByRole('group', { name: 'Default plan 3' });
  await third.getByLabel('Name (optional)').fill('Six fortnightly');
  await third.getByLabel('The balance').selectOption('installments');
  await third.getByLabel('Number of installments').fill('1');
  await section.getByRole('button', { name: 'Save default plans' }).click();
  await third.getByText('Choose 2 to 24 installments.').waitFor();
  await third.getByLabel('Number of installments').fill('6');
  await third.getByLabel('Every', { exact: true }).selectOption('two_weeks');
  await third.getByLabel('First installment, days after the link is created').fill('14');
  await section.getByRole('button', { name: 'Save default plans' }).click();
  await section.getByText('Default plans saved.').waitFor();

  const { page: console } = await staff('demo', { ...wide, lng: 'es' });
  await console.getByRole('link', { name: 'Nuevo enlace' }).click();
  const picker = console.getByLabel('Partir de un plan predeterminado');
  await picker.selectOption({ label: 'Six fortnightly' });
  assert.equal(await console.getByLabel('Número de cuotas').inputValue(), '6');
  assert.equal(await console.getByLabel('Cada', { exact: true }).inputValue(), 'two_weeks');
  const today = await console.evaluate(() => new Date().toLocaleDateString('en-CA'));
  const firstDue = new Date(Date.parse(`${today}T00:00:00Z`) + 14 * 86_400_000).toISOString().slice(0, 10);
  assert.equal(await console.getByLabel('Fecha de la primera cuota').inputValue(), firstDue);
  // An unnamed default plan is named from its shape in the console's language.
  await picker.selectOption({ label: 'Saldo 21 días antes de la fecha de cirugía' });
  await console.getByLabel('Fecha de cirugía').fill('2099-03-22');
  assert.equal(await console.getByLabel('Fecha del saldo').inputValue(), '2099-03-01');
});
