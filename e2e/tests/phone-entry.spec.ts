import assert from 'node:assert/strict';
import type { Locator } from 'playwright-core';
import { expectAccessible } from '../support/a11y.js';
import {
  completeDocumentSteps,
  CARDS,
  answerChallenge,
  assertEnabled,
  expectConfirmation,
  expectNoHorizontalScroll,
  expectRoute,
  nextButton,
  nextStep,
  openLink,
  payButton,
  paymentDialog,
  say,
  sayRe,
  SIGN_UI,
  signDocumentStep,
  submitPatientInfo,
  uploadIdStep,
  type Flow,
} from '../support/flows.js';
import { outboxIds, smsCode, waitForMessage } from '../support/outbox.js';
import { SCREENSHOT_PHONE } from '../support/session.js';
import { test } from '../support/test.js';

/**
 * Issue 16 on a 390×844 phone, in Spanish and in English: values pasted or autofilled the way phones do (a spaced
 * code, a grouped card number, "MM/YY", "150.00") are understood or refused with a reason, the patient details read
 * well, and axe passes after every state change.
 */
test.use({ viewport: SCREENSHOT_PHONE, isMobile: true, hasTouch: true });

/** A paste: the text arrives at once, as the clipboard or autofill gives it (maxlength applies, as in a browser). */
async function paste(field: Locator, text: string): Promise<void> {
  await field.click();
  await field.press('ControlOrMeta+a');
  await field.press('Backspace');
  await field.page().keyboard.insertText(text);
}

async function signInWithSpacedCode(f: Flow): Promise<void> {
  const { page } = f;
  await expectRoute(page, '/auth');
  const seen = await outboxIds(f.product, f.link.phone);
  await page.getByRole('button', { name: sayRe(f.lng, 'auth.getCode') }).click();
  const sms = await waitForMessage(f.product, { to: f.link.phone, channel: 'sms', seen });
  const code = smsCode(sms);
  const field = page.getByLabel(sayRe(f.lng, 'auth.codeLabel'));
  // Phones and messaging apps often copy "123 456": the spaces go before the 6-digit limit (item 10e).
  await paste(field, `${code.slice(0, 2)} ${code.slice(2, 4)} ${code.slice(4)}`);
  assert.equal(await field.inputValue(), code);
  await page.getByRole('button', { name: sayRe(f.lng, 'auth.signIn') }).click();
  await expectRoute(page, '/patientinfo');
}

for (const lng of ['es', 'en'] as const) {
  test(`${lng}: phone entry — code, details, amount, card number and expiry as pasted; payment wording`, async ({
    product,
    admin,
    page,
  }) => {
    const link = await admin.createLink({
      firstName: 'Lucía',
      lastName: 'Ortega',
      address: '',
      language: lng,
    });
    const f: Flow = { page, product, link, lng };
    await openLink(f);
    await signInWithSpacedCode(f);

    // Patient information: the phone reads as on /auth, an empty detail says so, the patient is the payer.
    const amount = page.getByLabel(sayRe(lng, 'patientInfo.amount'));
    await amount.waitFor();
    const digits = link.phone.replace(/\D/g, '').slice(-10);
    assert.equal(
      await page.getByLabel(say(lng, 'patientInfo.phone'), { exact: true }).inputValue(),
      `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`,
    );
    assert.equal(
      await page.getByLabel(say(lng, 'patientInfo.address'), { exact: true }).getAttribute('placeholder'),
      say(lng, 'patientInfo.notOnFile'),
    );
    assert.ok(await page.getByRole('radio', { name: sayRe(lng, 'patientInfo.payerPatient') }).isChecked());
    await expectAccessible(page, `patient information (${lng}, phone)`);

    // "150.00" is refused with a reason, never read as 15000 (item 5).
    await page.getByLabel(sayRe(lng, 'patientInfo.paymentType')).selectOption('2');
    await paste(amount, '150.00');
    assert.equal(await amount.inputValue(), '');
    await page
      .getByRole('alert')
      .filter({ hasText: say(lng, 'patientInfo.wholeDollarsOnly') })
      .waitFor();
    await expectAccessible(page, `patient information, decimal refused (${lng})`);
    await paste(amount, '1500');
    await page
      .getByTestId('amount-formatted')
      .filter({ hasText: /1,500\.00/ })
      .waitFor();
    await expectNoHorizontalScroll(page);
    await expectAccessible(page, `patient information, amount shown as dollars (${lng})`);
    await submitPatientInfo(f);

    for (let guard = 0; guard < 6; guard++) {
      await page.waitForURL((u) => u.pathname !== '/patientinfo', { waitUntil: 'commit' });
      const route = new URL(page.url()).pathname;
      if (route === '/paymentauthorization') break;
      await nextButton(f).waitFor();
      if (route === '/patientiddocs') {
        // Item 2: the guidance once (the page's five items, none inside the frame) and, on a phone, the upload
        // controls first: the first "choose" button is on the first screen, the list comes after the frame.
        const frame = page.frameLocator(`iframe[src^="${product.signOrigin}"]`);
        const choose = frame.getByRole('button', { name: SIGN_UI.choose.front });
        await choose.waitFor();
        assert.equal(await frame.locator('ol').count(), 0, 'no second instruction list inside the frame');
        const list = page.getByRole('list', { name: say(lng, 'steps:idInstructions.listLabel') });
        const [button, listBox] = [await choose.boundingBox(), await list.boundingBox()];
        assert.ok(button && listBox && button.y < listBox.y, 'the upload controls come before the instructions');
        assert.ok(button.y + button.height < SCREENSHOT_PHONE.height * 1.1, `upload button at y=${button.y}`);
        await uploadIdStep(f, { seed: guard + 1 });
      } else await signDocumentStep(f, { by: 'type' });
      await expectAccessible(page, `${route} signed (${lng})`);
      await nextStep(f);
    }
    await expectRoute(page, '/paymentauthorization');

    // A partial payment's authorisation names a payment, not a deposit (item 9).
    await page.getByText(say(lng, 'payment:authorizationTextPayment').split('{{')[0]!.trim()).first().waitFor();

    // The card number as copied from a wallet or a note, with spaces; the expiry as autofill gives it (item 4).
    const number = page.getByLabel(sayRe(lng, 'payment:fields.cardNumber'));
    await paste(number, '4000 0000 0000 0077');
    assert.equal(await number.inputValue(), '4000 0000 0000 0077');
    const expiry = page.getByLabel(sayRe(lng, 'payment:fields.expiry'));
    const yy = String((new Date().getUTCFullYear() + 3) % 100).padStart(2, '0');
    await paste(expiry, `12 / ${yy}`);
    assert.equal(await expiry.inputValue(), `12${yy}`);
    await paste(page.getByLabel(sayRe(lng, 'payment:fields.cvc')), '123');
    // No address on file: the billing address is typed.
    await page.getByLabel(sayRe(lng, 'payment:fields.billingAddress')).fill('1200 Ocean Avenue');
    await page.getByRole('checkbox', { name: sayRe(lng, 'payment:agree') }).check();
    await expectAccessible(page, `payment authorisation, filled in (${lng})`);
    await assertEnabled(payButton(f), 'PAY NOW');
    await payButton(f).click();

    // The sandbox issuer's challenge speaks the page's language only (item 9).
    const lightbox = page.locator('#elavon-3ds-lightbox');
    await lightbox.waitFor();
    const challenge = page.frameLocator(`iframe[src^="${product.gatewayOrigin}"]`);
    await challenge.locator('button').first().waitFor();
    assert.equal(await challenge.locator('html').getAttribute('lang'), lng);
    const shown = await challenge.locator('body').innerText();
    if (lng === 'es') assert.doesNotMatch(shown, /Authenticate|verify it's you/);
    else assert.doesNotMatch(shown, /Autenticar|Confirme/);
    assert.match(await lightbox.evaluate((el) => getComputedStyle(el).backgroundColor), /rgba\(0, 0, 0, 0\.6\)/);
    await answerChallenge(f, 'authenticate');
    await expectConfirmation(f, { amount: '$1,500.00' });
    assert.equal(await paymentDialog(f).count(), 0);
  });
}

test('en: a gateway error is titled neutrally; closing it puts focus on the card number (items 9, 10a)', async ({
  product,
  admin,
  page,
}) => {
  const link = await admin.createLink({ firstName: 'Omar', lastName: 'Haddad' });
  const f: Flow = { page, product, link, lng: 'en' };
  await openLink(f);
  await signInWithSpacedCode(f);
  await page.getByLabel(sayRe('en', 'patientInfo.amount')).fill('500');
  await submitPatientInfo(f);
  await completeDocumentSteps(f);
  await expectRoute(page, '/paymentauthorization');
  await paste(page.getByLabel('Card number'), CARDS.luhnInvalid);
  await paste(page.getByLabel(sayRe('en', 'payment:fields.expiry')), '12/40');
  await paste(page.getByLabel('CVC/CVV'), '123');
  await page.getByRole('checkbox', { name: sayRe('en', 'payment:agree') }).check();
  await assertEnabled(payButton(f), 'PAY NOW');
  await payButton(f).click();
  const dialog = paymentDialog(f);
  await dialog.getByRole('heading', { name: 'Payment not completed' }).waitFor();
  assert.equal(await dialog.getByText('Card Declined').count(), 0);
  await expectAccessible(page, 'payment error modal (phone)');
  const ok = dialog.getByRole('button', { name: 'OK' });
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press('Tab');
    assert.ok(await ok.evaluate((el) => document.activeElement === el), `Tab ${i + 1} stays on OK`);
  }
  await page.keyboard.press('Enter');
  await dialog.waitFor({ state: 'hidden' });
  const focused = await page.evaluate(
    () => document.activeElement?.getAttribute('name') ?? document.activeElement?.tagName,
  );
  assert.equal(focused, 'CardNumber', 'focus returns to the card number, not <body>');
  await expectAccessible(page, 'payment page after the error modal');
});
