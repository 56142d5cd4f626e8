import assert from 'node:assert/strict';
import type { BrowserContext, FrameLocator, Locator, Page } from 'playwright-core';
import { createLink } from '../support/admin.js';
import { idCardJpeg, idCardPng } from '../support/fixtures.js';
import {
  assertEnabled,
  expectRoute,
  nextButton,
  openLink,
  sayRe,
  signingFrame,
  signInBySms,
  SIGN_UI,
  steadyInView,
  submitPatientInfo,
  type Flow,
} from '../support/flows.js';
import { smsCode, waitForMessage } from '../support/outbox.js';
import type { RunningProduct } from '../support/server.js';
import { PHONE } from '../support/session.js';
import { test } from '../support/test.js';

/**
 * Issue 25: the signing frame's "Sign document" and "Submit documents" must not act before sign.js (a module script)
 * has attached its handlers. A tap in that moment used to submit the native form: the frame reloaded, the typed name
 * was gone and Next never enabled. Here the signing service's script is held at the network edge (the browser asks
 * for it, the answer waits) while the test taps the button the instant it is visible; then the script is let through
 * and the document must still be signed in the same page, with what the patient typed.
 */
const LOADING = { en: 'Loading…', es: 'Cargando…' } as const;

/** Holds every request for the signing page's script until `release()`; `hold()` closes the gate again. */
async function signScriptGate(product: RunningProduct, context: BrowserContext) {
  let open: () => void = () => undefined;
  let gate: Promise<void> = Promise.resolve();
  let asked = 0;
  await context.route(`${product.signOrigin}/assets/sign.js`, async (route) => {
    asked++;
    await gate;
    await route.continue();
  });
  return {
    hold: () => {
      gate = new Promise((r) => (open = r));
    },
    release: () => open(),
    asked: () => asked,
  };
}

/** Every document the signing origin loaded in this page (the first load of each step, and any reload). */
function signingLoads(product: RunningProduct, page: Page): string[] {
  const loads: string[] = [];
  page.on('framenavigated', (fr) => {
    if (fr.url().startsWith(product.signOrigin)) loads.push(fr.url());
  });
  return loads;
}

interface FirstSight {
  label: string;
  disabled: boolean;
  ariaBusy: string | null;
}

/** A real tap (mouse down/up at the button's centre) the moment the button is on screen: no wait for it to be ready. */
async function tapAtOnce(page: Page, button: Locator): Promise<FirstSight> {
  await button.waitFor({ state: 'visible' });
  await button.scrollIntoViewIfNeeded();
  const seen = await firstSight(button);
  const box = await button.boundingBox();
  assert.ok(box, 'the button has a box on screen');
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  // One turn of the page's event loop: a native submission the tap caused has started its navigation by then (the
  // old document may already be gone, hence the catch).
  await button.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)))).catch(() => undefined);
  return seen;
}

function assertLoadingAtFirstSight(seen: FirstSight, lng: 'en' | 'es', what: string): void {
  assert.deepEqual(
    seen,
    { label: LOADING[lng], disabled: true, ariaBusy: 'true' },
    `${what} is shown disabled, saying "${LOADING[lng]}", until the page's script is ready`,
  );
}

/** Signs in on a phone and chooses the payment: the next screen is the invoice step. */
async function toInvoice(product: RunningProduct, page: Page, lng: 'en' | 'es' = 'en'): Promise<Flow> {
  const link = await createLink(product, { firstName: 'Ana', lastName: 'Ruiz', language: lng });
  const f: Flow = { page, product, link, lng };
  await openLink(f);
  await signInBySms(f);
  await page.getByLabel(sayRe(lng, 'patientInfo.amount')).fill('500');
  return f;
}

/** What the button shows before it is pressed. */
const firstSight = (button: Locator): Promise<FirstSight> =>
  button.evaluate((b: HTMLButtonElement) => ({
    label: (b.textContent ?? '').trim(),
    disabled: b.disabled,
    ariaBusy: b.getAttribute('aria-busy'),
  }));

test('en, phone, in the app: Enter in the name field before sign.js is ready reloads nothing; the typed name is signed and Next enables', async ({
  product,
  openSession,
}) => {
  const { page, context } = await openSession({ label: 'phone', viewport: PHONE, isMobile: true, hasTouch: true });
  const script = await signScriptGate(product, context);
  const loads = signingLoads(product, page);
  const f = await toInvoice(product, page);
  // The invoice: the frame arrives, its script does not yet. The app covers the frame with a spinner until the
  // frame has loaded, which stops a finger, not the keyboard: Tab reaches the name field behind it.
  script.hold();
  await submitPatientInfo(f);
  await expectRoute(page, '/patientinvoicedetail');
  const frame = signingFrame(f);
  const name = frame.getByLabel(SIGN_UI.signerName);
  await name.waitFor();
  const seen = await firstSight(frame.locator('#sign-form #submit'));
  await name.fill('Ana María Ruiz'); // the patient corrects the prefilled name, as the HTML allows at once
  await name.press('Enter'); // the keyboard's way to submit a form
  await expectStillHere(frame, script, 'the invoice');
  assert.equal(await name.inputValue(), 'Ana María Ruiz', 'the typed name is still there');
  assert.deepEqual(loads.length, 1, `the invoice frame was loaded once, not reloaded: ${loads.join(', ')}`);
  assertLoadingAtFirstSight(seen, 'en', '"Sign document"');
  await signTyped(frame, 'Ana María Ruiz');
  await assertEnabled(nextButton(f), 'Next after the invoice was signed', 30_000);
  assert.equal(loads.length, 1, 'no frame reloaded');
});

test('en, the ID form on its own: a tap on "Submit documents" before sign.js is ready reloads nothing; the ID is then submitted', async ({
  product,
  page,
  context,
}) => {
  const urls = await documentUrls(product, 'en');
  const script = await signScriptGate(product, context);
  const loads = signingLoads(product, page);
  script.hold();
  await page.goto(`${urls['/patientiddocs']}?lng=en`, { waitUntil: 'commit' });
  const seen = await tapAtOnce(page, page.locator('#upload-form #submit'));
  await expectStillHere(page.locator(':root'), script, 'the ID form');
  assert.equal(new URL(page.url()).search, '?lng=en', `the form was not submitted natively: ${page.url()}`);
  assert.equal(loads.length, 1, `the page was loaded once, not reloaded: ${loads.join(', ')}`);
  assertLoadingAtFirstSight(seen, 'en', '"Submit documents"');
  await page.locator('#front-file').setInputFiles(idCardPng(7));
  const back = await idCardJpeg(page, 'Ruiz back 7');
  await page.locator('#back-file').setInputFiles(back);
  await page.getByText(back.name).first().waitFor();
  await page.getByRole('button', { name: SIGN_UI.submitUpload }).click();
  await page.getByText('Your documents were received. You can continue in the app.').waitFor();
  assert.equal(loads.length, 1, 'no reload');
});

test('es, the invoice on its own: Enter in the name field and a tap before sign.js is ready keep the page; it signs once ready', async ({
  product,
  page,
  context,
}) => {
  const urls = await documentUrls(product, 'es');
  const script = await signScriptGate(product, context);
  const loads = signingLoads(product, page);
  script.hold();
  await page.goto(`${urls['/patientinvoicedetail']}?lng=es`, { waitUntil: 'commit' });
  const name = page.getByLabel(SIGN_UI.signerName);
  await name.waitFor();
  await name.fill('Ana Ruiz Soto');
  await name.press('Enter');
  const seen = await tapAtOnce(page, page.locator('#sign-form #submit'));
  await expectStillHere(page.locator(':root'), script, 'the Spanish invoice');
  assert.equal(await name.inputValue(), 'Ana Ruiz Soto', 'the typed name is still there');
  assert.equal(new URL(page.url()).search, '?lng=es', `the page was not submitted natively: ${page.url()}`);
  assert.equal(loads.length, 1, `the page was loaded once, not reloaded: ${loads.join(', ')}`);
  assertLoadingAtFirstSight(seen, 'es', '"Firmar el documento"');
  await signTyped(page.locator(':root'), 'Ana Ruiz Soto');
  await page.getByRole('heading', { name: 'Gracias' }).waitFor();
});

/**
 * Lets the held script through and waits until the page's submit button is ready (its real label, enabled). Any
 * native submission caused by the early taps has been requested by then (the frame asked for the page again, which
 * asks for the script again): the count of script requests tells.
 */
async function expectStillHere(
  frame: FrameLocator | Locator,
  script: Awaited<ReturnType<typeof signScriptGate>>,
  what: string,
): Promise<void> {
  const askedBefore = script.asked();
  script.release();
  const ready = frame.getByRole('button', {
    name: /^\s*(sign document|firmar el documento|submit documents|enviar los documentos)\s*$/i,
  });
  await ready.waitFor();
  await assertEnabled(ready, `the submit button of ${what}`);
  assert.equal(script.asked(), askedBefore, `${what} asked for its script again: it was reloaded`);
}

/**
 * Signs by typing, as signDocument() in flows.ts does: first the document finishes loading (its PDF pages render above
 * the form and push it down), then each press waits until its control stands still on the page. A click aimed while
 * the frame moved landed beside the button and counted as done (Playwright checks the target inside the frame only):
 * "Sign document" then did nothing and Next never enabled, now and then under load (decision 0188).
 */
async function signTyped(frame: FrameLocator | Locator, typedName: string): Promise<void> {
  await frame.locator('[aria-busy="true"]').first().waitFor({ state: 'detached', timeout: 30_000 });
  const toggle = frame.getByRole('button', { name: SIGN_UI.methodType });
  await pressSteady(toggle);
  await frame.getByRole('button', { name: SIGN_UI.methodType, pressed: true }).waitFor();
  await frame.getByLabel(SIGN_UI.typed).fill(typedName);
  await pressSteady(frame.getByRole('button', { name: SIGN_UI.submitSign }));
}

async function pressSteady(target: Locator): Promise<void> {
  await target.waitFor({ state: 'visible' });
  await steadyInView(target);
  await target.click();
}

const API_KEY = 'paylink-sandbox-api-key';

/** Each document step's signing URL, through the patient API (SMS code from the sandbox outbox, payment, steps). */
async function documentUrls(product: RunningProduct, lng: 'en' | 'es'): Promise<Record<string, string>> {
  const link = await createLink(product, { firstName: 'Ana', lastName: 'Ruiz', language: lng });
  const api = async <T>(method: string, url: string, token?: string, body?: unknown): Promise<T> => {
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
  };
  await api('POST', '/api/auth/sms/send', undefined, { linkId: link.id });
  const sms = await waitForMessage(product, { to: link.phone, channel: 'sms' });
  const { token } = await api<{ token: string }>('POST', '/api/auth/sms/verify', undefined, {
    linkId: link.id,
    code: smsCode(sms),
  });
  const choice = { linkId: link.id, paymentTypeId: 1, paymentSourceId: 1, paymentAmount: 500 };
  await api('POST', '/api/linkpaymenthistory', token, choice);
  const q = new URLSearchParams(Object.entries(choice).map(([k, v]) => [k, String(v)]));
  const steps = await api<{ routePath: string; documentUrl: string | null }[]>(
    'POST',
    `/api/linksteps/script?${q}`,
    token,
  );
  const urls: Record<string, string> = {};
  for (const step of steps) if (step.documentUrl) urls[step.routePath] = step.documentUrl;
  assert.ok(urls['/patientinvoicedetail'] && urls['/patientiddocs'], 'the invoice and ID steps have a documentUrl');
  return urls;
}
