import assert from 'node:assert/strict';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { expectAccessible } from './a11y.js';
import type { TestLink } from './admin.js';
import { idCardJpeg, idCardPng } from './fixtures.js';
import { messageText, outboxIds, signInLink, smsCode, waitForMessage, type OutboxMessage } from './outbox.js';
import type { RunningProduct } from './server.js';
import { eventually } from './wait.js';
import { exact, t, type Lng } from './texts.js';

/**
 * The steps a patient or payor takes, written once for both languages and for mouse or keyboard use. Controls are
 * found the way a person finds them: by role and visible name (English names are the spec's texts; Spanish names
 * come from the app's own Spanish translation file, see texts.ts).
 */
export interface Flow {
  page: Page;
  product: RunningProduct;
  link: TestLink;
  lng: Lng;
  /** Keyboard only: no mouse clicks, Tab to reach controls, Enter/Space to press them. */
  keyboard?: boolean;
}

/** Sandbox test cards (issue 6). */
export const CARDS = {
  visaFrictionless: '4000000000000002',
  mastercardFrictionless: '5413330089604111',
  challenge: '4000000000000077',
  attempted: '4000000000000101',
  rejected3ds: '4000000000000119',
  unavailable3ds: '4000000000000127',
  cvvNoMatch: '4000000000000051',
  avsNoMatch: '4000000000000069',
  declined: '4000000000000085',
  gatewayError: '4000000000000093',
  luhnInvalid: '4000000000000003',
} as const;

/** A future expiry as MMYY (December, three years ahead). */
export function futureExpiry(): string {
  return `12${String((new Date().getUTCFullYear() + 3) % 100).padStart(2, '0')}`;
}

/** Text the user reads, from the app's translation files (the English ones carry the spec's texts). */
export function say(lng: Lng, key: string): string {
  return t(lng, key);
}
/** The same text as an exact, whitespace-tolerant RegExp (for accessible names). */
export const sayRe = (lng: Lng, key: string): RegExp => exact(t(lng, key));

export async function expectRoute(page: Page, route: string, timeout?: number): Promise<void> {
  await page.waitForURL((u) => u.pathname === route, { timeout, waitUntil: 'commit' });
}

export async function expectNoHorizontalScroll(page: Page): Promise<void> {
  const { scroll, width } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    width: window.innerWidth,
  }));
  assert.ok(scroll <= width + 1, `the page scrolls sideways at ${width} px (content is ${scroll} px wide)`);
}

/** Presses a control the way the flow's user does: a click, or Tab until it has focus and then Enter. */
export async function press(f: Flow, target: Locator, key: 'Enter' | 'Space' = 'Enter'): Promise<void> {
  await target.waitFor({ state: 'visible' });
  if (!f.keyboard) {
    await steadyInView(target);
    return target.click();
  }
  await tabTo(f.page, target);
  await f.page.keyboard.press(key);
}

type Box = { x: number; y: number; width: number; height: number };

/**
 * Waits until a control inside a frame holds still where a person can see it (on the screen, not cut off by the
 * frame's edge), and returns its box on the page. Playwright's own checks (visible, stable, receives the click) run
 * inside the frame's document; they do not see the page around the frame scroll or the frame move. The signing frame
 * is another site's page, so Chromium draws it in its own process; when a press first has to scroll the page to
 * bring the control into view, the click was now and then aimed, under load, while the page was still moving, and
 * landed beside the control: the signing page's "lost" presses (issue 25, decision 0188). Scrolling first and
 * waiting until the control stands still on the page (two frames of the page) is what a person does anyway.
 * Controls of the page itself need none of this.
 */
export async function steadyInView(target: Locator): Promise<Box | null> {
  const handle = await target.elementHandle();
  const owner = await handle?.ownerFrame();
  const frameElement = owner?.parentFrame() ? await owner.frameElement() : null;
  try {
    if (!frameElement) return null;
    return await eventually(
      async () => {
        // Not locator.scrollIntoViewIfNeeded(): it waits for the control to be stable first, and Chromium runs no
        // animation frames in another site's frame while it is off the screen, so that wait never ends.
        await target.evaluate((el) => el.scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: 'instant' }));
        const a = await target.boundingBox();
        await target.page().evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        const [b, edge] = await Promise.all([target.boundingBox(), frameElement.boundingBox()]);
        const screen = target.page().viewportSize();
        if (!a || !b || !edge || !screen || a.x !== b.x || a.y !== b.y || a.height !== b.height) return undefined;
        const inFrame =
          b.x >= edge.x - 1 &&
          b.y >= edge.y - 1 &&
          b.x + b.width <= edge.x + edge.width + 1 &&
          b.y + b.height <= edge.y + edge.height + 1;
        const [cx, cy] = [b.x + b.width / 2, b.y + b.height / 2];
        const onScreen = cx >= 0 && cy >= 0 && cx <= screen.width && cy <= screen.height;
        return inFrame && onScreen ? b : undefined;
      },
      { message: `${target} to hold still inside the visible part of its frame` },
    );
  } finally {
    await Promise.all([handle?.dispose(), frameElement?.dispose()]);
  }
}

/** Keyboard path to a control: Tab (at most `max` times) until `target` has focus. Works inside frames too. */
export async function tabTo(page: Page, target: Locator, max = 80): Promise<void> {
  await target.waitFor({ state: 'visible' });
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el.ownerDocument.activeElement === el && el.ownerDocument.hasFocus())) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Could not reach ${target} with the Tab key in ${max} presses`);
}

/** Types into a field: click + fill, or Tab to it and type. */
export async function typeInto(f: Flow, field: Locator, value: string): Promise<void> {
  await field.waitFor({ state: 'visible' });
  if (!f.keyboard) return field.fill(value);
  await tabTo(f.page, field);
  await f.page.keyboard.press('ControlOrMeta+a');
  await f.page.keyboard.press('Backspace');
  await f.page.keyboard.type(value);
}

export async function openLink(f: Flow, query: Record<string, string> = {}): Promise<void> {
  const u = new URL(f.link.url);
  if (f.lng === 'es') u.searchParams.set('lng', 'es');
  for (const [k, v] of Object.entries(query)) u.searchParams.set(k, v);
  await f.page.goto(u.toString());
}

// ---------------------------------------------------------------------------------------------------------- sign-in

/**
 * SMS sign-in on /auth: request the code, read it from the sandbox outbox, enter it, land on /patientinfo, or on
 * `landing` for a returning patient: the app passes through /patientinfo, whose continue check moves on at once, so
 * only the last route is a place the test can wait for.
 */
export async function signInBySms(f: Flow, opts: { axe?: boolean; landing?: string } = {}): Promise<OutboxMessage> {
  const { page } = f;
  await expectRoute(page, '/auth');
  const seen = await outboxIds(f.product, f.link.phone);
  await press(f, page.getByRole('button', { name: sayRe(f.lng, 'auth.getCode') }));
  await page.getByText(say(f.lng, 'auth.codeSent')).first().waitFor();
  const sms = await waitForMessage(f.product, { to: f.link.phone, channel: 'sms', seen });
  const code = page.getByLabel(sayRe(f.lng, 'auth.codeLabel'));
  if (opts.axe) await expectAccessible(page, 'auth, code sent');
  await typeInto(f, code, smsCode(sms));
  await press(f, page.getByRole('button', { name: sayRe(f.lng, 'auth.signIn') }));
  await expectRoute(page, opts.landing ?? '/patientinfo');
  return sms;
}

/** E-mail sign-in: ask for the link, open it from the outbox, press the one button that finishes signing in. */
export async function signInByEmail(
  f: Flow,
  email = f.link.email,
  opts: { axe?: boolean } = {},
): Promise<OutboxMessage> {
  const { page } = f;
  await expectRoute(page, '/auth');
  const seen = await outboxIds(f.product, email);
  await typeInto(f, page.getByLabel(sayRe(f.lng, 'auth.emailLabel')), email);
  await press(f, page.getByRole('button', { name: sayRe(f.lng, 'auth.sendEmailLink') }));
  await page.getByText(say(f.lng, 'auth.emailLinkSent')).first().waitFor();
  if (opts.axe) await expectAccessible(page, 'auth, e-mail sent');
  const mail = await waitForMessage(f.product, { to: email, channel: 'email', seen, match: /oobCode=/ });
  await page.goto(signInLink(mail));
  await expectRoute(page, '/auth');
  if (opts.axe) await expectAccessible(page, 'auth, finish e-mail sign-in');
  await press(f, page.getByRole('button', { name: sayRe(f.lng, 'auth.continue') }));
  await expectRoute(page, '/patientinfo');
  return mail;
}

// ---------------------------------------------------------------------------------------------- patient information

function amountField(f: Flow): Locator {
  return f.page.getByLabel(sayRe(f.lng, 'patientInfo.amount'));
}
function agreeButton(f: Flow): Locator {
  return f.page.getByRole('button', { name: sayRe(f.lng, 'patientInfo.agree') });
}

/** Payment type (1 deposit, 2 partial payment), who pays (1 patient, 2 payor) and the amount, as typed. */
export async function choosePayment(f: Flow, choice: { type?: 1 | 2; source?: 1 | 2; amount: string }): Promise<void> {
  const { page } = f;
  await amountField(f).waitFor();
  if (choice.type) {
    const select = page.getByLabel(sayRe(f.lng, 'patientInfo.paymentType'));
    if (f.keyboard) {
      await tabTo(page, select);
      await select.selectOption(String(choice.type)); // a focused <select> takes the value like arrow keys would
    } else await select.selectOption(String(choice.type));
  }
  if (choice.source) {
    const name =
      choice.source === 1 ? sayRe(f.lng, 'patientInfo.payerPatient') : sayRe(f.lng, 'patientInfo.payerPayor');
    const radio = page.getByRole('radio', { name });
    if (f.keyboard) {
      await tabTo(page, page.getByRole('radio').first().or(radio).first());
      // Arrow keys move within a radio group; Space checks.
      for (let i = 0; i < 3 && !(await radio.isChecked()); i++) await page.keyboard.press('ArrowDown');
    } else await radio.check();
    assert.ok(await radio.isChecked(), `payment source ${choice.source} chosen`);
  }
  await typeInto(f, amountField(f), choice.amount);
}

export async function submitPatientInfo(f: Flow): Promise<void> {
  const agree = agreeButton(f);
  await assertEnabled(agree, 'AGREE');
  await press(f, agree);
}

/** An out-of-range amount: the field is marked invalid, the feedback card shows the message, AGREE is disabled. */
export async function expectAmountFeedback(
  f: Flow,
  o: { type?: 1 | 2; source?: 1 | 2; amount: string; message: string },
): Promise<void> {
  await choosePayment(f, o);
  await f.page.getByText(o.message).first().waitFor();
  assert.equal(await amountField(f).getAttribute('aria-invalid'), 'true', 'amount field marked invalid');
  assert.ok(await agreeButton(f).isDisabled(), 'AGREE disabled while the amount is out of range');
}

export async function assertEnabled(button: Locator, what: string, timeout = 15_000): Promise<void> {
  await button.waitFor({ state: 'visible' });
  const deadline = Date.now() + timeout;
  while (await button.isDisabled()) {
    if (Date.now() > deadline) throw new Error(`${what} is still disabled after ${timeout} ms`);
    await button.page().waitForTimeout(100);
  }
}

// --------------------------------------------------------------------------------------------------- document steps

export function nextButton(f: Flow): Locator {
  return f.page.getByRole('button', { name: sayRe(f.lng, 'steps:next') });
}

export function signingFrame(f: Flow): FrameLocator {
  return f.page.frameLocator(`iframe[src^="${f.product.signOrigin}"]`);
}

/** Names of the signing service's controls (its own EN/ES texts: apps/server/src/modules/signing/sign-texts.ts). */
export const SIGN_UI = {
  methodType: /^\s*(type my signature|escribir mi firma)\s*$/i,
  methodDraw: /^\s*(draw my signature|dibujar mi firma)\s*$/i,
  typed: /^(type your name as your signature|escriba su nombre como firma)/i,
  signerName: /^(full name|nombre completo)$/i,
  pad: /^(signature pad|recuadro de firma)/i,
  done: /^\s*(done|listo)\s*$/i,
  submitSign: /^\s*(sign document|firmar el documento)\s*$/i,
  submitUpload: /^\s*(submit documents|enviar los documentos)\s*$/i,
  choose: {
    front: /^(choose or take a photo of the front|elegir o tomar una foto del (anverso|frente))/i,
    back: /^(choose or take a photo of the back|elegir o tomar una foto del (reverso|dorso))/i,
  },
};

/**
 * Signs inside a signing frame: typed (the keyboard path) or drawn with the pointer on the signature pad, then
 * "Sign document".
 */
export async function signInFrame(
  f: Flow,
  frame: FrameLocator,
  o: { by: 'type' | 'draw'; name?: string },
): Promise<void> {
  const { page } = f;
  const name = o.name ?? `${f.link.input.firstName} ${f.link.input.lastName}`;
  const signer = frame.getByLabel(SIGN_UI.signerName);
  await signer.waitFor();
  // Let the document finish loading first (the contract's PDF pages render above the pad), as a reader would.
  await frame.locator('[aria-busy="true"]').first().waitFor({ state: 'detached', timeout: 30_000 });
  if ((await signer.inputValue()).trim() === '') await typeInto(f, signer, name);
  if (o.by === 'type') {
    // The toggle is disabled until the page's script is ready (a person sees it greyed out and waits). One press:
    // press() waits until the toggle stands still on the screen (see steadyInView: the press "lost" under load).
    const toggle = frame.getByRole('button', { name: SIGN_UI.methodType });
    await eventually(() => toggle.isEnabled(), { message: 'the "Type my signature" toggle to be ready' });
    await press(f, toggle);
    await frame.getByRole('button', { name: SIGN_UI.methodType, pressed: true }).waitFor();
    await typeInto(f, frame.getByLabel(SIGN_UI.typed), name);
  } else {
    // The form opens on "Type" when it offers a signature typed on an earlier document: switch to drawing first.
    const draw = frame.getByRole('button', { name: SIGN_UI.methodDraw });
    await eventually(() => draw.isEnabled(), { message: 'the "Draw my signature" toggle to be ready' });
    if ((await draw.getAttribute('aria-pressed')) !== 'true') {
      await press(f, draw);
      await frame.getByRole('button', { name: SIGN_UI.methodDraw, pressed: true }).waitFor();
    }
    const canvas = frame.getByRole('img', { name: SIGN_UI.pad });
    await canvas.waitFor();
    // The frame may scroll smoothly: draw once the pad has stopped moving, where a person sees it.
    const box = await eventually(
      async () => {
        const b = await steadyInView(canvas);
        return b && b.height > 20 ? b : undefined;
      },
      { message: 'the signature pad to stop moving' },
    );
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + box.width * 0.15, y);
    await page.mouse.down();
    for (let i = 1; i <= 12; i++) {
      await page.mouse.move(box.x + box.width * (0.15 + i * 0.055), y + Math.sin(i) * box.height * 0.25, { steps: 2 });
    }
    await page.mouse.up();
    const done = frame.getByRole('button', { name: SIGN_UI.done });
    if (await done.isVisible()) await press(f, done);
  }
  await press(f, frame.getByRole('button', { name: SIGN_UI.submitSign }));
}

/** Signs the document in the signing frame, by typing the name or drawing with the pointer, then waits for Next. */
export async function signDocumentStep(
  f: Flow,
  o: { by: 'type' | 'draw'; axe?: string; name?: string },
): Promise<void> {
  const { page } = f;
  const next = nextButton(f);
  await next.waitFor();
  assert.ok(await next.isDisabled(), 'Next is disabled until the document is signed');
  const frame = signingFrame(f);
  await frame.locator('body').waitFor();
  if (o.axe) await expectAccessible(page, o.axe);
  await signInFrame(f, frame, { by: o.by, name: o.name });
  await assertEnabled(next, 'Next after signing', 30_000);
  // Judge the screen again after the change: the "Document completed" status only exists now (issue 16, 10b).
  if (o.axe) await expectAccessible(page, `${o.axe}, signed`);
}

/** Uploads the front (PNG) and back (JPEG) of an ID in the signing frame, then waits for Next. */
export async function uploadIdStep(f: Flow, o: { axe?: string; seed?: number } = {}): Promise<void> {
  const next = nextButton(f);
  await next.waitFor();
  assert.ok(await next.isDisabled(), 'Next is disabled until the ID is uploaded');
  const frame = signingFrame(f);
  await frame.locator('body').waitFor();
  if (o.axe) await expectAccessible(f.page, o.axe);
  const front = idCardPng(o.seed ?? 1);
  const back = await idCardJpeg(f.page, `${f.link.input.lastName} back ${o.seed ?? 1}`);
  for (const [side, file] of [
    ['front', front],
    ['back', back],
  ] as const) {
    const choose = frame.getByRole('button', { name: SIGN_UI.choose[side] });
    if (f.keyboard) {
      // The visible button opens the system file picker; the test answers the picker.
      const chooser = f.page.waitForEvent('filechooser');
      await tabTo(f.page, choose);
      await f.page.keyboard.press('Enter');
      await (await chooser).setFiles(file);
    } else {
      await choose.waitFor();
      await frame.locator(`#${side}-file`).setInputFiles(file);
    }
    await frame.getByText(file.name).first().waitFor();
  }
  await press(f, frame.getByRole('button', { name: SIGN_UI.submitUpload }));
  try {
    await assertEnabled(next, 'Next after the ID upload', 30_000);
  } catch (e) {
    // What the frame showed (its errors, the submit button, the done note), so a failure names its cause.
    const shown = await frame
      .locator('#form-error, #front-error, #back-error, #submit, #done, .preview')
      .evaluateAll((els) => els.map((el) => `${el.id || el.className}: ${(el.textContent ?? '').trim()}`))
      .catch((err: unknown) => [`frame not readable: ${String(err)}`]);
    throw new Error(`${(e as Error).message}; the frame showed: ${shown.join(' | ')}`);
  }
  if (o.axe) await expectAccessible(f.page, `${o.axe}, uploaded`);
}

export async function nextStep(f: Flow): Promise<void> {
  const next = nextButton(f);
  await assertEnabled(next, 'Next');
  const from = new URL(f.page.url()).pathname;
  await press(f, next);
  await f.page.waitForURL((u) => u.pathname !== from, { waitUntil: 'commit' });
}

// ----------------------------------------------------------------------------------------------------- card payment

export interface CardInput {
  number: string;
  expiry?: string;
  cvc?: string;
  name?: string;
  zip?: string;
  address?: string;
  city?: string;
  /** Abbreviation shown in the dropdown, e.g. CA. */
  state?: string;
  payorEmail?: string;
}

function field(f: Flow, name: string): Locator {
  return f.page.getByLabel(sayRe(f.lng, `payment:fields.${name}`)).first();
}

/** Fills the card form (keeps prefilled billing fields unless given) and ticks the agreement. */
export async function fillCard(f: Flow, card: CardInput): Promise<void> {
  const { page } = f;
  /** Types `given` when the test names a value; else keeps a prefilled value, or types `fallback` into an empty field. */
  const set = async (name: string, given: string | undefined, fallback: string) => {
    const el = field(f, name);
    if (given === undefined && (await el.inputValue()) !== '') return;
    await typeInto(f, el, given ?? fallback);
  };
  await set('fullName', card.name, 'Pat Payor');
  await typeInto(f, field(f, 'cardNumber'), card.number);
  await typeInto(f, field(f, 'expiry'), card.expiry ?? futureExpiry());
  await typeInto(f, field(f, 'cvc'), card.cvc ?? '123');
  await set('billingZip', card.zip, '90401');
  await set('billingAddress', card.address, '1200 Ocean Avenue');
  await set('billingCity', card.city, 'Santa Monica');
  const state = field(f, 'billingState');
  if (card.state || (await state.inputValue()) === '') {
    const abbr = card.state ?? 'CA';
    const value = await state.locator('option', { hasText: new RegExp(`^\\s*${abbr}\\s*$`) }).getAttribute('value');
    if (f.keyboard) await tabTo(page, state);
    await state.selectOption(value ?? abbr);
  }
  if (card.payorEmail !== undefined) await typeInto(f, field(f, 'payorEmail'), card.payorEmail);
  const agree = page.getByRole('checkbox', { name: sayRe(f.lng, 'payment:agree') });
  if (!(await agree.isChecked())) {
    if (f.keyboard) {
      await tabTo(page, agree);
      await page.keyboard.press('Space');
    } else await agree.check();
  }
}

export function payButton(f: Flow): Locator {
  return f.page.getByRole('button', { name: sayRe(f.lng, 'payment:payNow') });
}

export async function payNow(f: Flow): Promise<void> {
  const pay = payButton(f);
  await assertEnabled(pay, 'PAY NOW');
  await press(f, pay);
}

/** The sandbox 3-D Secure lightbox: press Authenticate or Fail authentication. */
export async function answerChallenge(f: Flow, answer: 'authenticate' | 'fail'): Promise<void> {
  const frame = f.page.frameLocator(`iframe[src^="${f.product.gatewayOrigin}"]`);
  const name =
    answer === 'authenticate' ? /^(authenticate|autenticar)$/i : /fail authentication|fallar la autenticación/i;
  const button = frame.getByRole('button', { name }).or(f.page.getByRole('button', { name })).first();
  await press(f, button);
}

/** The failure modal: its title and the selected message; returns the dialog. */
export async function expectPaymentModal(
  f: Flow,
  o: { title: string | RegExp; lines: (string | RegExp)[] },
): Promise<Locator> {
  const dialog = paymentDialog(f).filter({ hasText: o.title });
  await dialog.waitFor();
  for (const line of o.lines) await dialog.getByText(line).first().waitFor();
  return dialog;
}

/** The app's modal (not the gateway's 3-D Secure lightbox, which is a dialog too). */
export function paymentDialog(f: Flow): Locator {
  return f.page.getByRole('dialog').and(f.page.locator(':not(#elavon-3ds-lightbox)'));
}

export async function closeModal(f: Flow): Promise<void> {
  const dialog = paymentDialog(f);
  await press(f, dialog.getByRole('button', { name: sayRe(f.lng, 'payment:decline.ok') }).first());
  await dialog.waitFor({ state: 'hidden' });
}

/** `smsTo`: the receipt went by text message to this (masked) number, and the page says so instead of e-mail. */
export async function expectConfirmation(
  f: Flow,
  o: { amount: string; smsTo?: string },
): Promise<{ transactionId: string }> {
  const { page } = f;
  await expectRoute(page, '/confirmation', 60_000);
  await page.getByRole('heading', { name: sayRe(f.lng, 'confirmation.title') }).waitFor();
  await page.getByText(o.amount).first().waitFor();
  if (o.smsTo) {
    await page
      .getByText(t(f.lng, 'confirmation.receiptSms', { to: o.smsTo }))
      .first()
      .waitFor();
    assert.equal(await page.getByText(say(f.lng, 'confirmation.receipt')).count(), 0, 'no e-mail receipt promised');
  } else await page.getByText(say(f.lng, 'confirmation.receipt')).first().waitFor();
  const body = await page.locator('body').innerText();
  const label = t(f.lng, 'confirmation.transactionId').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = new RegExp(`${label}\\s*:?\\s*([A-Za-z0-9_-]{4,})`).exec(body);
  assert.ok(m, `the confirmation shows a transaction id:\n${body}`);
  return { transactionId: m[1]! };
}

/** The receipt e-mail: amount in USD, card last 4 and the transaction id shown on the confirmation page. */
export async function expectReceipt(
  f: Flow,
  o: { to: string; amount: string; last4: string; transactionId: string },
): Promise<OutboxMessage> {
  const receipt = await waitForMessage(f.product, {
    to: o.to,
    channel: 'email',
    match: (m) => messageText(m).includes(o.transactionId),
    timeout: 30_000,
  });
  const text = messageText(receipt);
  assert.ok(text.includes(o.amount), `receipt shows ${o.amount}`);
  assert.ok(text.includes(o.last4), `receipt shows the card's last 4 (${o.last4})`);
  assert.doesNotMatch(text, /\b\d{13,19}\b/, 'no full card number in the receipt');
  return receipt;
}

// ------------------------------------------------------------------------------------------------------ state pages

export async function expectStepsCompletePage(page: Page, lng: Lng): Promise<void> {
  await expectRoute(page, '/stepscomplete');
  await page
    .getByText(
      lng === 'en'
        ? 'Process has been completed and Payment has been made. No further action required...'
        : t('es', 'errors.stepsCompleteTitle'),
    )
    .first()
    .waitFor();
}

// ------------------------------------------------------------------------------------------------------- shortcuts

/**
 * From a fresh browser to the payment page: sign in (by the link's method), choose the payment, sign/upload every
 * document step the step list names. Used by the journeys whose subject is later in the flow.
 */
export async function walkToPayment(f: Flow, choice: { type?: 1 | 2; source?: 1 | 2; amount: string }): Promise<void> {
  await openLink(f);
  if (f.link.input.signInMethod === 'email') await signInByEmail(f);
  else await signInBySms(f);
  await choosePayment(f, choice);
  await submitPatientInfo(f);
  await completeDocumentSteps(f);
}

/**
 * From the first document step to the payment page (or to `until`): sign (typing `name`) or upload each step the step
 * list names, then Next. With `reload`, the tab is reloaded on arrival at every step first (a phone back from the
 * camera or the SMS app, issue 10).
 */
export async function completeDocumentSteps(
  f: Flow,
  o: { reload?: boolean; until?: string; name?: string } = {},
): Promise<void> {
  const until = o.until ?? '/paymentauthorization';
  for (let guard = 0; guard < 8; guard++) {
    await f.page.waitForURL((u) => u.pathname !== '/patientinfo', { waitUntil: 'commit' });
    const route = new URL(f.page.url()).pathname;
    if (o.reload) {
      // The step must render after Next before it is reloaded: a page stuck on "Loading..." after a reload and then
      // Next was the bug (issue 10 item 6), and a reload on arrival would hide it.
      await (route === '/paymentauthorization' ? payButton(f) : nextButton(f)).waitFor();
      await f.page.reload();
      await expectRoute(f.page, route);
    }
    if (route === until) return;
    await nextButton(f).waitFor();
    if (route === '/patientiddocs' || route === '/payoriddocs') await uploadIdStep(f, { seed: guard + 1 });
    else await signDocumentStep(f, { by: 'type', name: o.name });
    await nextStep(f);
  }
  throw new Error(`Did not reach ${until} (stuck at ${f.page.url()})`);
}
