import assert from 'node:assert/strict';
import { expectAccessible } from '../support/a11y.js';
import {
  completeDocumentSteps,
  assertEnabled,
  expectNoHorizontalScroll,
  expectRoute,
  nextButton,
  press,
  sayRe,
  signingFrame,
  SIGN_UI,
  submitPatientInfo,
} from '../support/flows.js';
import { SCREENSHOT_PHONE } from '../support/session.js';
import { test } from '../support/test.js';

/**
 * Issue 16 on a 390×844 phone, in Spanish and English: the contract reads at a legible size in one scroll (item 1),
 * in the reader's language (item 3), with a full-screen reading mode and "jump to signature"; the "Open the PDF"
 * target is at least 24 px (10f) and the signature typed on the invoice is offered again (10g).
 */

const TEXT = {
  es: {
    heading: 'Acuerdo Financiero y Consentimiento del Paciente',
    jump: 'Ir a la firma',
    read: 'Leer en pantalla completa',
    close: 'Cerrar pantalla completa',
    openPdf: 'Abrir el PDF',
    reuse: /^Usar mi firma escrita «Lucía Ortega»$/,
  },
  en: {
    heading: 'Patient Financial Agreement and Consent',
    jump: 'Jump to signature',
    read: 'Read full screen',
    close: 'Close full screen',
    openPdf: 'Open the PDF',
    reuse: /^Use my typed signature “Lucía Ortega”$/,
  },
} as const;

for (const lng of ['es', 'en'] as const) {
  test(`${lng}: the contract on a phone — legible text, one scroll, reading mode, jump to signature, signed`, async ({
    product,
    admin,
    patient,
  }) => {
    const link = await admin.createLink({ firstName: 'Lucía', lastName: 'Ortega', language: lng });
    const words = TEXT[lng];
    const { page, flow: f } = await patient(link, { lng, viewport: SCREENSHOT_PHONE, isMobile: true, hasTouch: true });
    await page.getByLabel(sayRe(lng, 'patientInfo.amount')).fill('500');
    await submitPatientInfo(f);
    await completeDocumentSteps(f, { until: '/patientcontract', name: 'Lucía Ortega' });
    await expectRoute(page, '/patientcontract');
    const frame = signingFrame(f);
    const frameEl = page.locator(`iframe[src^="${product.signOrigin}"]`);

    // Item 3: the contract in the reader's language. Item 1: its text, reflowed, at a legible size.
    const text = frame.locator('#pdf-text');
    await text.getByRole('heading', { name: words.heading }).waitFor();
    await frame.locator('[aria-busy="true"]').first().waitFor({ state: 'detached', timeout: 30_000 });
    const sizes = await text
      .locator('p, h2')
      .evaluateAll((els) => els.map((e) => parseFloat(getComputedStyle(e).fontSize)));
    assert.ok(sizes.length > 8, `the contract's paragraphs are shown as text (${sizes.length})`);
    assert.ok(Math.min(...sizes) >= 12, `every line is at least 12 px (smallest ${Math.min(...sizes)} px)`);
    assert.equal(await frame.locator('#pdf-pages').isVisible(), false, 'the printed pages wait behind a switch');

    // One scroll: the frame is as tall as its page, so nothing scrolls inside it.
    await page.waitForFunction((sel) => {
      const el = document.querySelector(sel) as HTMLIFrameElement | null;
      return !!el && el.getBoundingClientRect().height > window.innerHeight;
    }, `iframe[src^="${product.signOrigin}"]`);
    const inner = await frame.locator('html').evaluate((h) => ({ scroll: h.scrollHeight, client: h.clientHeight }));
    assert.ok(inner.scroll <= inner.client + 2, `no scroll inside the frame (${inner.scroll} > ${inner.client})`);
    await expectNoHorizontalScroll(page);

    // 10f: "Open the PDF" is a target of at least 24 px.
    const pdfLink = frame.getByRole('link', { name: words.openPdf });
    const linkBox = (await pdfLink.boundingBox())!;
    assert.ok(linkBox.height >= 24, `"Open the PDF" is ${linkBox.height} px tall`);
    await expectAccessible(page, `contract as text (${lng}, phone)`);

    // Full-screen reading: the frame covers the screen, only the contract shows, and it closes again.
    await press(f, frame.getByRole('button', { name: words.read }));
    const close = frame.getByRole('button', { name: words.close });
    await close.waitFor();
    await page.waitForFunction((sel) => {
      const r = document.querySelector(sel)!.getBoundingClientRect();
      return r.top === 0 && Math.abs(r.height - window.innerHeight) < 2;
    }, `iframe[src^="${product.signOrigin}"]`);
    assert.equal(await frame.locator('#sign-form').isVisible(), false);
    await expectAccessible(page, `contract, reading mode (${lng})`);
    await press(f, close);
    await close.waitFor({ state: 'hidden' });
    assert.equal(await page.evaluate(() => getComputedStyle(document.documentElement).overflow), 'visible');

    // Jump to signature: the page (the only scroll) moves so the signature's heading is on screen.
    await page.evaluate(() => window.scrollTo(0, 0));
    await press(f, frame.getByRole('link', { name: words.jump }));
    const signHeading = frame.locator('#sign-h');
    await page.waitForFunction(
      ([sel]) => {
        const frameTop = document.querySelector(sel!)!.getBoundingClientRect().top;
        return frameTop < 0;
      },
      [`iframe[src^="${product.signOrigin}"]`],
    );
    const h = (await signHeading.boundingBox())!;
    assert.ok(h.y >= 0 && h.y + h.height <= SCREENSHOT_PHONE.height, `the signature heading is on screen (${h.y})`);
    assert.equal(await signHeading.evaluate((el) => el === document.activeElement), true);

    // 10g: the signature typed on the invoice is offered, in one press.
    await press(f, frame.getByRole('button', { name: words.reuse }));
    assert.equal(await frame.getByLabel(SIGN_UI.typed).inputValue(), 'Lucía Ortega');
    await expectAccessible(page, `contract, typed signature reused (${lng})`);
    await press(f, frame.getByRole('button', { name: SIGN_UI.submitSign }));
    await assertEnabled(nextButton(f), 'Next after signing the contract', 30_000);
    await expectAccessible(page, `contract signed (${lng})`);
    assert.ok((await frameEl.boundingBox())!.height < SCREENSHOT_PHONE.height * 2, 'the frame shrank to its page');
  });
}
