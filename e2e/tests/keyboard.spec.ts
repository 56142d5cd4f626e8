import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { uniquePhone } from '../support/admin.js';
import { createStaff } from '../support/console.js';
import { expectVisibleFocus, focused } from '../support/focus.js';
import {
  CARDS,
  answerChallenge,
  choosePayment,
  expectConfirmation,
  expectRoute,
  fillCard,
  nextStep,
  openLink,
  payNow,
  signDocumentStep,
  paymentDialog,
  signInBySms,
  submitPatientInfo,
  tabTo,
  uploadIdStep,
  walkToPayment,
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

/**
 * Issue 29, item 5: the 3-D Secure challenge by keyboard. Focus moves into the challenge once its frame has loaded,
 * the page behind is inert (Tab never reaches it), and when the challenge closes focus goes to the payment page's
 * status, then to the result (the failure dialog, then the card number; or the confirmation page's heading). At no
 * point does focus fall to <body> on the payment page: a sampler records every animation frame in which it does.
 */
test('3-D Secure challenge by keyboard: focus in the challenge, the page behind inert, focus never on <body>', async ({
  product,
  admin,
  page,
}) => {
  const link = await admin.createLink({ firstName: 'Ava', lastName: 'Martinez' });
  const f: Flow = { page, product, link, lng: 'en', keyboard: true };
  await page.addInitScript(() => {
    const w = window as unknown as { __bodyFocus: string[]; __sampling: boolean };
    w.__bodyFocus = [];
    const sample = () => {
      if (w.__sampling && location.pathname === '/paymentauthorization' && document.hasFocus()) {
        const el = document.activeElement;
        if (!el || el === document.body)
          w.__bodyFocus.push(
            `${Math.round(performance.now())} ms${document.getElementById('elavon-3ds-lightbox') ? ', challenge open' : ''}${document.querySelector('.modal') ? ', dialog open' : ''}`,
          );
      }
      requestAnimationFrame(sample);
    };
    requestAnimationFrame(sample);
  });
  await walkToPayment(f, { type: 1, source: 1, amount: '1000' });
  const challengeFrame = (u: string) => u.startsWith(product.gatewayOrigin);
  const lightbox = page.locator('#elavon-3ds-lightbox');
  const appRoot = page.locator('#root');

  for (const answer of ['fail', 'authenticate'] as const) {
    await fillCard(f, { number: CARDS.challenge });
    await page.evaluate(() => ((window as unknown as { __sampling: boolean }).__sampling = true));
    await payNow(f);

    // The challenge opens: focus inside it (on its first button), the page behind inert.
    await lightbox.waitFor();
    await expectVisibleFocus(
      page,
      `${answer}: focus in the challenge once it has loaded`,
      (x) => challengeFrame(x.frameUrl) && x.tag === 'button',
    );
    assert.equal(
      await appRoot.evaluate((el) => (el as HTMLElement).inert),
      true,
      'the page behind the challenge is inert',
    );
    for (const key of ['Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab']) {
      await page.keyboard.press(key);
      const inPage = await page.evaluate(() => document.getElementById('root')!.contains(document.activeElement));
      assert.equal(
        inPage,
        false,
        `${answer}: ${key} reached the page behind the challenge (${JSON.stringify(await focused(page))})`,
      );
    }
    await answerChallenge(f, answer);
    await lightbox.waitFor({ state: 'detached' });

    if (answer === 'fail') {
      // The challenge closed: focus leaves it for the failure dialog's OK button, then the card number to change.
      const dialog = paymentDialog(f);
      await dialog.waitFor();
      await expectVisibleFocus(
        page,
        "the failure dialog's OK button",
        (x) => x.tag === 'button' && !challengeFrame(x.frameUrl),
      );
      await page.keyboard.press('Enter');
      await dialog.waitFor({ state: 'hidden' });
      await expectVisibleFocus(page, 'the card number after the dialog', (x) => x.tag === 'input');
    } else {
      await expectConfirmation(f, { amount: '$1,000.00' });
      await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
    }
    const drops = await page.evaluate(() => (window as unknown as { __bodyFocus: string[] }).__bodyFocus);
    assert.deepEqual(drops, [], `${answer}: focus fell to <body> on the payment page`);
  }
});

/** Tab to a field, replace its text by typing. */
async function typeByKeyboard(page: Page, field: Locator, value: string): Promise<void> {
  await tabTo(page, field);
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Backspace');
  if (value) await page.keyboard.type(value);
}
/** Tab to a control and press Enter. */
async function pressByKeyboard(page: Page, control: Locator): Promise<void> {
  await tabTo(page, control);
  await page.keyboard.press('Enter');
}
async function signInByKeyboard(page: Page, baseUrl: string, who: { email: string; password: string }) {
  await page.goto(`${baseUrl}/console/sign-in`);
  await typeByKeyboard(page, page.getByLabel('E-mail'), who.email);
  await typeByKeyboard(page, page.getByLabel('Password'), who.password);
  await pressByKeyboard(page, page.getByRole('button', { name: 'Sign in' }));
  await page.getByRole('heading', { level: 1, name: 'Links' }).waitFor();
}

/**
 * Issue 29, item 6: the console by keyboard. Focus goes to each answer (the wrong-password error, the created link's
 * heading, "Sent", the refund's refusal, the refund done), or stays on the button pressed (a saved setting), with a
 * visible outline, never <body>.
 */
test('console by keyboard: wrong password, create and send a link, a refused and a done refund; focus on each answer', async ({
  product,
  admin,
  openSession,
}) => {
  const coordinator = await createStaff(product, 'coordinator');
  const desk = { viewport: { width: 1280, height: 900 } };
  {
    const { page, close } = await openSession({ label: 'coordinator', ...desk });
    await page.goto(`${product.baseUrl}/console/sign-in`);
    await typeByKeyboard(page, page.getByLabel('E-mail'), coordinator.email);
    await typeByKeyboard(page, page.getByLabel('Password'), 'not-the-password');
    await pressByKeyboard(page, page.getByRole('button', { name: 'Sign in' }));
    await expectVisibleFocus(page, 'the wrong-password error', (x) =>
      x.text.includes('The e-mail or password is wrong.'),
    );
    await typeByKeyboard(page, page.getByLabel('Password'), coordinator.password);
    await pressByKeyboard(page, page.getByRole('button', { name: 'Sign in' }));
    await page.getByRole('heading', { level: 1, name: 'Links' }).waitFor();

    await pressByKeyboard(page, page.getByRole('link', { name: 'New link' }));
    await page.getByRole('heading', { level: 1, name: 'New link' }).waitFor();
    const phone = uniquePhone();
    const fields: [string, string][] = [
      ['First name', 'Mia'],
      ['Last name', `Keyboard${Date.now() % 100000}`],
      ['Mobile phone', `(${phone.slice(2, 5)}) ${phone.slice(5, 8)}-${phone.slice(8)}`],
      ['Address', '12 Palm Street'],
      ['City', 'Miami'],
      ['ZIP code', '33101'],
    ];
    for (const [label, value] of fields) await typeByKeyboard(page, page.getByLabel(label, { exact: true }), value);
    await typeByKeyboard(page, page.getByLabel('State', { exact: true }), 'FL');
    await pressByKeyboard(page, page.getByRole('button', { name: 'Create link' }));
    await expectVisibleFocus(
      page,
      'the created link heading',
      (x) => x.tag === 'h2' && x.text === 'Send it to the patient',
    );
    await pressByKeyboard(page, page.getByRole('button', { name: 'Send by SMS' }));
    await expectVisibleFocus(page, 'the sent status', (x) => x.role === 'status' && x.text.startsWith('Sent by SMS'));
    await close();
  }

  // A paid link that has not settled: a partial refund is refused (only a full void today), the full one is done.
  const link = await admin.createLink({ firstName: 'Leo', lastName: 'Refundkeys' });
  {
    const { page, close } = await openSession({ label: 'patient' });
    const f: Flow = { page, product, link, lng: 'en' };
    await walkToPayment(f, { type: 1, source: 1, amount: '500' });
    await fillCard(f, { number: CARDS.visaFrictionless });
    await payNow(f);
    await expectConfirmation(f, { amount: '$500.00' });
    await close();
  }
  const billing = await createStaff(product, 'billing');
  {
    const { page, close } = await openSession({ label: 'billing', ...desk });
    await signInByKeyboard(page, product.baseUrl, billing);
    await page.goto(`${product.baseUrl}/console/links/${link.id}`);
    await page.getByRole('heading', { level: 1, name: 'Leo Refundkeys' }).waitFor();
    const card = page.getByRole('region', { name: 'Refunds and evidence' });
    await card.getByText('No refunds yet.').waitFor();
    await pressByKeyboard(page, card.getByRole('button', { name: 'Refund…' }));
    const dialog = page.getByRole('dialog', { name: 'Refund or void this payment' });
    await dialog.waitFor();
    await typeByKeyboard(page, dialog.getByLabel('Amount to refund (US dollars)'), '100');
    await typeByKeyboard(page, dialog.getByLabel(/^Reason/), 'Consultation fee returned');
    await pressByKeyboard(page, dialog.getByRole('button', { name: 'Review' }));
    const confirm = page.getByRole('dialog', { name: 'Confirm the refund' });
    // Unsettled: the Review step refuses a part before anything is sent, and focus is on why.
    await expectVisibleFocus(page, 'the refused refund', (x) => x.role === 'alert' && /settled/.test(x.text));
    assert.equal(await confirm.getByRole('button', { name: 'Refund $100.00' }).isDisabled(), true);

    await pressByKeyboard(page, confirm.getByRole('button', { name: 'Back' }));
    await typeByKeyboard(page, dialog.getByLabel('Amount to refund (US dollars)'), '');
    await pressByKeyboard(page, dialog.getByRole('button', { name: 'Review' }));
    await pressByKeyboard(page, confirm.getByRole('button', { name: 'Refund $500.00' }));
    await confirm.waitFor({ state: 'hidden' });
    await expectVisibleFocus(
      page,
      'the refund done',
      (x) => x.role === 'status' && x.text === 'The payment was voided ($500.00).',
    );
    await close();
  }

  // An answer that takes no focus leaves it where the keyboard was: Save waits without `disabled` (decision 0235);
  // a disabled button dropped the focus to <body> and the next Tab left the page.
  {
    const { page, close } = await openSession({ label: 'admin', ...desk });
    await signInByKeyboard(page, product.baseUrl, await createStaff(product, 'admin'));
    await page.goto(`${product.baseUrl}/console/settings`);
    await page.getByRole('heading', { level: 1, name: 'Practice settings' }).waitFor();
    const name = page.getByLabel('Practice name', { exact: true });
    await typeByKeyboard(page, name, 'Clinica Teclado');
    await pressByKeyboard(page, name.locator('xpath=ancestor::form').getByRole('button', { name: 'Save' }));
    await page.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor();
    await expectVisibleFocus(page, 'Save, still focused after saving', (x) => x.tag === 'button' && x.text === 'Save');
    await close();
  }
});
