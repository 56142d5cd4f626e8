import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { expectAccessible } from '../support/a11y.js';
import { admin, createLink, type TestLink } from '../support/admin.js';
import { launchOptions } from '../support/chromium.js';
import {
  assertEnabled,
  choosePayment,
  expectRoute,
  nextButton,
  signingFrame,
  signInFrame,
  submitPatientInfo,
} from '../support/flows.js';
import { smsCode, waitForMessage } from '../support/outbox.js';
import { ROOT, type RunningProduct } from '../support/server.js';
import { PHONE } from '../support/session.js';
import { test } from '../support/test.js';

/**
 * The signing service in Chromium, framed the way the app frames it: a parent page on the app's origin (PUBLIC_URL)
 * holds the step's documentUrl. Documents come from the real API (sign-in by SMS code, payment choice, step list).
 * The parent records every message it receives, so the test sees exactly what the app would see, and when.
 */
// The parent page below is made up by the test (page.route), so Chromium cannot tell its address space and would
// refuse it a loopback frame (Local Network Access). The real app's pages are served from a real socket. (A launch
// option: this file gets a browser, and so a worker, of its own.)
test.use({ launchOptions: launchOptions(['--disable-features=LocalNetworkAccessChecks']) });

const MOBILE = { viewport: PHONE, isMobile: true, hasTouch: true };

const API_KEY = 'paylink-sandbox-api-key';
const FIXTURES = path.join(ROOT, 'apps/server/test/fixtures');

interface Step {
  linkStepId: number;
  routePath: string;
  documentUrl: string | null;
}

async function api<T>(
  product: RunningProduct,
  method: string,
  url: string,
  token?: string,
  body?: unknown,
): Promise<T> {
  const r = await fetch(`${product.baseUrl}${url}`, {
    method,
    headers: {
      'x-api-key': API_KEY,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  if (!r.ok) throw new Error(`${method} ${url} answered ${r.status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** A link with its step list, through the patient API: SMS code from the sandbox outbox, payment choice, steps. */
async function linkWithDocuments(
  product: RunningProduct,
  source: 1 | 2 = 1,
): Promise<{ link: TestLink; steps: Step[]; token: string }> {
  const link = await createLink(product, {
    firstName: 'Ana',
    lastName: 'Ruiz',
    ...(source === 2 ? { payorName: 'Pablo Ruiz', payorEmail: 'pablo@example.com' } : {}),
  });
  await api(product, 'POST', '/api/auth/sms/send', undefined, { linkId: link.id });
  const sms = await waitForMessage(product, { to: link.phone, channel: 'sms' });
  const { token } = await api<{ token: string }>(product, 'POST', '/api/auth/sms/verify', undefined, {
    linkId: link.id,
    code: smsCode(sms),
  });
  const choice = { linkId: link.id, paymentTypeId: 1, paymentSourceId: source, paymentAmount: 750 };
  await api(product, 'POST', '/api/linkpaymenthistory', token, choice);
  const q = new URLSearchParams(Object.entries(choice).map(([k, v]) => [k, String(v)]));
  const steps = await api<Step[]>(product, 'POST', `/api/linksteps/script?${q}`, token);
  return { link, steps, token };
}

const docUrl = (steps: Step[], route: string) => {
  const url = steps.find((s) => s.routePath === route)?.documentUrl;
  assert.ok(url, `${route} has a documentUrl`);
  return url;
};

/**
 * Opens `src` in a frame of a page served at `origin` (the app's, or another to test who may frame it), the way the app's
 * step page hosts it. The parent keeps every message event's origin and data in window.__messages, except the layout
 * messages (frame height, full screen, scroll) the app uses on phones (decision 0167).
 */
async function hostFrame(page: Page, src: string, origin: string): Promise<FrameLocator> {
  const parentUrl = `${origin}/__signing-test-parent`;
  await page.route(parentUrl, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><html lang="en"><head><title>Parent</title><meta name="viewport" content="width=device-width, initial-scale=1"></head><body>
<iframe id="doc" title="Document" src="${src}" style="width:100%;height:600px;border:0"></iframe>
<script>window.__messages=[];addEventListener('message',e=>{if(!['frame-height','overlay','scroll-to'].includes(e.data&&e.data.action))__messages.push({origin:e.origin,data:e.data})});</script>
</body></html>`,
    }),
  );
  await page.goto(parentUrl);
  return page.frameLocator('#doc');
}

const messages = (page: Page) =>
  page.evaluate(() => (window as unknown as { __messages: { origin: string; data: unknown }[] }).__messages);

async function expectCompletionMessage(product: RunningProduct, page: Page): Promise<string> {
  await page.waitForFunction(() => (window as unknown as { __messages: unknown[] }).__messages.length > 0);
  const got = await messages(page);
  assert.equal(got.length, 1, 'exactly one message');
  assert.equal(got[0]!.origin, product.signOrigin, 'the message comes from the signing origin');
  const data = got[0]!.data as { action: string; formID: string };
  assert.equal(data.action, 'submission-completed');
  assert.match(data.formID, /^[0-9a-f-]{36}$/);
  return data.formID;
}

async function adminDocuments(product: RunningProduct, linkId: string) {
  return admin<{ submissionId: string; kind: string; status: string; signatureMethod: string | null }[]>(
    product,
    'GET',
    `/links/${linkId}/documents`,
  );
}

test('invoice signed by drawing: the frame tells the app only after the server recorded it', async ({
  product,
  page,
}) => {
  const { link, steps } = await linkWithDocuments(product);
  const frame = await hostFrame(page, docUrl(steps, '/patientinvoicedetail'), product.baseUrl);
  await frame.getByRole('heading', { name: 'Invoice' }).waitFor();
  await frame.getByText('$750.00').first().waitFor();
  await frame.getByText('Rhinoplasty consultation and surgery').waitFor();
  await expectAccessible(page, 'invoice signing page');

  // Signing without a signature is refused in the page and nothing is posted.
  await frame.getByRole('button', { name: 'Sign document' }).click();
  await frame.getByText('Add your signature: draw it or type it.').waitFor();

  const canvas = frame.locator('canvas');
  await canvas.scrollIntoViewIfNeeded();
  const box = (await canvas.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.1, box.y + box.height * 0.6);
  await page.mouse.down();
  for (let i = 1; i <= 15; i++) {
    await page.mouse.move(box.x + box.width * (0.1 + i * 0.05), box.y + box.height * (0.5 + Math.sin(i) * 0.25), {
      steps: 3,
    });
  }
  await page.mouse.up();
  assert.deepEqual(await messages(page), [], 'drawing alone completes nothing');
  assert.equal((await adminDocuments(product, link.id))[0]!.status, 'pending');

  // Clear and redo: the pad empties, and an empty pad is refused again.
  await frame.getByRole('button', { name: 'Clear' }).click();
  await frame.getByRole('button', { name: 'Sign document' }).click();
  await frame.getByText('Add your signature: draw it or type it.').waitFor();
  await page.mouse.move(box.x + box.width * 0.2, box.y + box.height * 0.4);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.7, box.y + box.height * 0.7, { steps: 10 });
  await page.mouse.up();

  await frame.getByRole('button', { name: 'Sign document' }).click();
  await frame.getByRole('heading', { name: 'Thank you' }).waitFor();
  const formID = await expectCompletionMessage(product, page);
  const invoice = (await adminDocuments(product, link.id)).find((d) => d.kind === 'invoice')!;
  assert.deepEqual([invoice.submissionId, invoice.status, invoice.signatureMethod], [formID, 'completed', 'draw']);

  // Reopening the document confirms completion again (the app may have reloaded) and offers no second signature.
  await page.reload();
  await frame.getByRole('heading', { name: 'Thank you' }).waitFor();
  assert.equal(await frame.getByRole('button', { name: 'Sign document' }).count(), 0);
  await expectCompletionMessage(product, page);
});

test('contract signed by typing with the keyboard, page by page in Spanish on a phone', async ({
  product,
  openSession,
}) => {
  const { link, steps } = await linkWithDocuments(product);
  const { page } = await openSession(MOBILE);
  const frame = await hostFrame(page, `${docUrl(steps, '/patientcontract')}?lng=es`, product.baseUrl);
  await frame.getByRole('heading', { name: 'Contrato del paciente' }).waitFor();
  // A phone starts on the contract's text (issue 16); the printed pages are one press away.
  await frame.getByRole('heading', { name: 'Acuerdo Financiero y Consentimiento del Paciente' }).waitFor();
  await frame.getByRole('button', { name: 'Páginas impresas' }).click();
  // Every page of the PDF is drawn, fitted to the frame's width.
  await frame.getByText('Página 2 de 2').waitFor();
  await expectAccessible(page, 'contract signing page (es, phone)');
  const widths = await frame
    .locator('.pdf-page canvas')
    .evaluateAll((cs) => cs.map((c) => Math.round(c.getBoundingClientRect().width)));
  const holder = await frame.locator('#pdf-pages').evaluate((e) => Math.round(e.getBoundingClientRect().width));
  assert.deepEqual(widths, [holder, holder]);

  const typeButton = frame.getByRole('button', { name: 'Escribir mi firma' });
  await typeButton.focus();
  await page.keyboard.press('Enter');
  assert.equal(await typeButton.getAttribute('aria-pressed'), 'true');
  const typed = frame.getByLabel('Escriba su nombre como firma');
  await typed.focus();
  await page.keyboard.type('Ana Ruiz');
  await frame.getByRole('button', { name: 'Firmar el documento' }).focus();
  await page.keyboard.press('Enter');
  await frame.getByRole('heading', { name: 'Gracias' }).waitFor();
  await expectCompletionMessage(product, page);
  const contract = (await adminDocuments(product, link.id)).find((d) => d.kind === 'contract')!;
  assert.equal(contract.signatureMethod, 'type');
});

test('ID upload: HEIC converted, previews, the same file twice refused, completion only with both sides', async ({
  product,
  page,
}) => {
  const { link, steps } = await linkWithDocuments(product);
  const frame = await hostFrame(page, docUrl(steps, '/patientiddocs'), product.baseUrl);
  // The guidance list is shown once, on the app's page (issue 16): the frame starts with the upload controls.
  await frame.getByRole('button', { name: 'Submit documents' }).waitFor();
  await expectAccessible(page, 'ID upload page');

  // Submitting with nothing uploaded says what is missing.
  await frame.getByRole('button', { name: 'Submit documents' }).click();
  await frame.getByText('Upload both the front and the back before you submit.').waitFor();

  const heic = fs.readFileSync(path.join(FIXTURES, 'id-photo.heic'));
  await frame.locator('#front-file').setInputFiles({ name: 'IMG_0420.HEIC', mimeType: 'image/heic', buffer: heic });
  const frontPreview = frame.getByRole('img', { name: 'Front: IMG_0420.HEIC' });
  await frontPreview.waitFor();
  // The browser can show it: the server turned the HEIC into a JPEG.
  assert.ok((await frontPreview.evaluate((img: HTMLImageElement) => img.decode().then(() => img.naturalWidth))) > 0);

  // The same photo again, as the back: refused with the spec's guidance.
  await frame.locator('#back-file').setInputFiles({ name: 'copy.heic', mimeType: 'image/heic', buffer: heic });
  await frame.getByText(/This exact file was already uploaded\. Do not upload the same document twice/).waitFor();
  await expectAccessible(page, 'ID upload page with a preview and an error');
  assert.deepEqual(await messages(page), []);

  await frame.locator('#back-file').setInputFiles({
    name: 'back.png',
    mimeType: 'image/png',
    buffer: fs.readFileSync(path.join(FIXTURES, 'id-back.png')),
  });
  await frame.getByRole('img', { name: 'Back: back.png' }).waitFor();
  await frame.getByRole('button', { name: 'Submit documents' }).click();
  await frame.getByText('Your documents were received. You can continue in the app.').waitFor();
  await expectCompletionMessage(product, page);
  const id = (await adminDocuments(product, link.id)).find((d) => d.kind === 'patient_id')!;
  assert.deepEqual([id.status, id.signatureMethod], ['completed', 'upload']);
});

test('an oversize or unreadable file gets a clear message; the camera is offered on phones', async ({
  product,
  openSession,
}) => {
  const { steps } = await linkWithDocuments(product);
  const { page } = await openSession(MOBILE);
  const frame = await hostFrame(page, docUrl(steps, '/patientiddocs'), product.baseUrl);
  await frame.getByRole('button', { name: 'Open the camera for the front' }).waitFor();
  assert.equal(await frame.locator('#front-camera-input').getAttribute('capture'), 'environment');
  const big = Buffer.alloc(11 * 1024 * 1024, 0xff);
  await frame.locator('#front-file').setInputFiles({ name: 'huge.jpg', mimeType: 'image/jpeg', buffer: big });
  await frame.getByText('This file is too large. The limit is 10 MB').waitFor();
  await frame
    .locator('#front-file')
    .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an ID') });
  await frame.getByText('This file type is not accepted.').waitFor();
  assert.deepEqual(await messages(page), []);
});

test('payor signs the payment authorisation; only the app may frame the signing pages', async ({ product, page }) => {
  const { link, steps } = await linkWithDocuments(product, 2);
  const url = docUrl(steps, '/paymentauthorization');
  // Another origin cannot frame it (frame-ancestors): the frame never shows the document.
  const foreign = await hostFrame(page, url, 'http://foreign.localhost:9');
  await page.waitForLoadState('load');
  assert.equal(await foreign.getByRole('heading', { name: 'Payment authorization' }).count(), 0);

  const frame = await hostFrame(page, url, product.baseUrl);
  await frame.getByText('I understand that this deposit is non-refundable.').waitFor();
  await frame.getByText(/must be present with this card on the pre-op day/).waitFor();
  assert.equal(await frame.getByLabel('Full name').inputValue(), 'Pablo Ruiz');
  await frame.getByRole('button', { name: 'Type my signature' }).click();
  await frame.getByLabel('Type your name as your signature').fill('Pablo Ruiz');
  await frame.getByRole('button', { name: 'Sign document' }).click();
  await expectCompletionMessage(product, page);
  const auth = (await adminDocuments(product, link.id)).find((d) => d.kind === 'payment_authorization')!;
  assert.equal(auth.status, 'completed');
});

test('through the app: Next enables only after the signing service recorded the signature; forged messages are ignored', async ({
  product,
  patient,
}) => {
  const link = await createLink(product, { firstName: 'Lucia', lastName: 'Mendez' });
  const { page, flow: f } = await patient(link);
  await expectRoute(page, '/patientinfo');
  await choosePayment(f, { type: 1, source: 1, amount: '600' });
  await submitPatientInfo(f);
  await expectRoute(page, '/patientinvoicedetail');
  const next = nextButton(f);
  await next.waitFor();
  const frame = signingFrame(f);
  await frame.getByText('$600.00').first().waitFor();

  // A completion message from any origin but the signing service's changes nothing. The probe posted after it
  // arrives after the forged one has been handled (same window, same task source).
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        addEventListener('message', (e) => e.data === 'probe' && requestAnimationFrame(() => resolve()));
        postMessage({ action: 'submission-completed', formID: 'forged' }, '*');
        postMessage('probe', '*');
      }),
  );
  assert.ok(await next.isDisabled(), 'Next stays disabled after a message from the app origin itself');

  await signInFrame(f, frame, { by: 'draw' });
  await frame.getByRole('heading', { name: 'Thank you' }).waitFor();
  await assertEnabled(next, 'Next after signing', 30_000);
  const invoice = (await adminDocuments(product, link.id)).find((d) => d.kind === 'invoice')!;
  assert.equal(invoice.status, 'completed');
});

test('phone: a finger opens the pad full screen, the page stays still, the signature survives rotation', async ({
  product,
  openSession,
}) => {
  const { link, steps } = await linkWithDocuments(product);
  const { page } = await openSession(MOBILE);
  const frame = await hostFrame(page, docUrl(steps, '/patientinvoicedetail'), product.baseUrl);
  const canvas = frame.locator('canvas');
  await canvas.scrollIntoViewIfNeeded();
  const inline = (await canvas.boundingBox())!;
  await page.touchscreen.tap(inline.x + inline.width / 2, inline.y + inline.height / 2);
  const done = frame.getByRole('button', { name: 'Done' });
  await done.waitFor();
  const full = (await canvas.boundingBox())!;
  assert.ok(full.height > inline.height * 2, `the pad fills the screen (${full.height} px tall)`);
  const inkedPixels = () =>
    canvas.evaluate((c: HTMLCanvasElement) => {
      const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 3; i < d.length; i += 4) if (d[i]! > 0) n++;
      return n;
    });
  assert.equal(await inkedPixels(), 0, 'the tap that opened the pad drew nothing');
  const scrollBefore = await frame.locator('html').evaluate(() => [scrollX, scrollY]);
  await page.mouse.move(full.x + 30, full.y + full.height / 2);
  await page.mouse.down();
  for (let i = 1; i <= 20; i++) {
    await page.mouse.move(full.x + 30 + i * 14, full.y + full.height / 2 + Math.sin(i) * 60, { steps: 2 });
  }
  await page.mouse.up();
  assert.deepEqual(await frame.locator('html').evaluate(() => [scrollX, scrollY]), scrollBefore);
  assert.equal(
    await frame.locator('html').evaluate((h) => getComputedStyle(h).overflow),
    'hidden',
    'the page under the pad cannot scroll',
  );
  const before = await inkedPixels();
  assert.ok(before > 0, 'the stroke is on the pad');
  // Rotate the phone: the pad takes the new shape and keeps the signature.
  await page.setViewportSize({ width: PHONE.height, height: PHONE.width });
  const signFrame = page.frames().find((x) => x.url().startsWith(product.signOrigin))!;
  await signFrame.waitForFunction(() => {
    const c = document.querySelector('canvas');
    return c !== null && c.width > c.height;
  });
  assert.ok((await inkedPixels()) > 0, 'the signature is still there after rotation');
  await done.click();
  await frame.getByRole('button', { name: 'Sign document' }).click();
  await frame.getByRole('heading', { name: 'Thank you' }).waitFor();
  await expectCompletionMessage(product, page);
  const invoice = (await adminDocuments(product, link.id)).find((d) => d.kind === 'invoice')!;
  assert.equal(invoice.signatureMethod, 'draw');
});
