// /auth's first screen as static HTML (issue 30, decision 0226): the server writes the title, the instruction and the
// phone or e-mail form into the page, in the patient's language, so a browser paints them before any script runs
// (and shows them with JavaScript off); with JavaScript the app takes the screen over without a change: no second
// form, no layout shift, what was typed and the focus kept, and signing in works.
import assert from 'node:assert/strict';
import type { Page } from '@playwright/test';
import { expectRoute, say, signInBySms, type Flow } from '../support/flows.js';
import { readOutbox, smsCode, waitForMessage } from '../support/outbox.js';
import { test } from '../support/test.js';

test.use({ viewport: { width: 390, height: 844 } });

const lastFour = (phone: string) => phone.replace(/\D/g, '').slice(-4);

/** The layout shifts the page has had so far (what CLS adds up), from the browser's own buffer. */
const layoutShifts = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let sum = 0;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) sum += (e as PerformanceEntry & { value: number }).value;
        }).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => resolve(sum), 100);
      }),
  );

test('with JavaScript off, /auth shows the title, the instruction and the form, in English and in Spanish', async ({
  product,
  admin,
  openSession,
}) => {
  const sms = await admin.createLink({ signInMethod: 'sms' });
  const email = await admin.createLink({ signInMethod: 'email' });

  const { page } = await openSession({ label: 'no JavaScript', javaScriptEnabled: false });
  await page.goto(`${product.baseUrl}/auth?id=${sms.id}`);
  await page.getByRole('heading', { level: 1, name: say('en', 'auth.phoneTitle') }).waitFor();
  await page.getByText(say('en', 'auth.phoneInstruction')).waitFor();
  assert.match(await page.getByLabel(say('en', 'auth.phoneLabel')).inputValue(), new RegExp(`${lastFour(sms.phone)}$`));
  await page.getByRole('button', { name: say('en', 'auth.getCode') }).waitFor();
  await page.getByLabel(say('en', 'auth.codeLabel')).waitFor();
  assert.equal(await page.getByRole('button', { name: say('en', 'auth.signIn') }).isDisabled(), true);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');

  await page.goto(`${product.baseUrl}/auth?id=${email.id}&lng=es`);
  await page.getByRole('heading', { level: 1, name: say('es', 'auth.emailTitle') }).waitFor();
  await page.getByText(say('es', 'auth.emailInstruction')).waitFor();
  await page.getByLabel(say('es', 'auth.emailLabel')).waitFor();
  await page.getByRole('button', { name: say('es', 'auth.sendEmailLink') }).waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'es');
  // Enter in the field before any script goes nowhere (the static form never submits).
  await page.getByLabel(say('es', 'auth.emailLabel')).fill('pat@example.com');
  await page.getByLabel(say('es', 'auth.emailLabel')).press('Enter');
  assert.equal(new URL(page.url()).search, `?id=${email.id}&lng=es`);

  // Spanish from the browser's languages (Accept-Language), as the app would detect it.
  const { page: es } = await openSession({
    label: 'no JavaScript, Spanish browser',
    javaScriptEnabled: false,
    locale: 'es-MX',
  });
  await es.goto(`${product.baseUrl}/auth?id=${sms.id}`);
  await es.getByRole('heading', { level: 1, name: say('es', 'auth.phoneTitle') }).waitFor();
  await es.getByText(say('es', 'auth.phoneInstruction')).waitFor();
  await es.getByRole('button', { name: say('es', 'auth.getCode') }).waitFor();
  assert.equal(await es.evaluate(() => document.documentElement.lang), 'es');
});

test('with JavaScript the app takes the screen over: one form, no shift, and signing in by SMS works', async ({
  product,
  admin,
  openSession,
}) => {
  const link = await admin.createLink({ signInMethod: 'sms' });
  const { page } = await openSession({ label: 'SMS' });
  // The scripts wait until the static screen has been looked at: what a slow phone shows first.
  let release!: () => void;
  const scripts = new Promise<void>((r) => (release = r));
  await page.route(/\/assets\/.*\.js$/, async (route) => {
    await scripts;
    await route.continue();
  });
  await page.goto(link.url, { waitUntil: 'commit' });
  const instruction = page.getByText(say('en', 'auth.phoneInstruction'));
  await instruction.waitFor();
  assert.equal(await page.locator('#paylink-boot[data-first-screen]').count(), 1);
  const before = await instruction.boundingBox();
  release();
  await page.locator('#paylink-boot').waitFor({ state: 'detached' });
  // The app's page now: the same place, one of each.
  assert.deepEqual(await instruction.boundingBox(), before);
  assert.equal(await page.getByRole('heading', { level: 1 }).count(), 1);
  assert.equal(await page.getByRole('button', { name: say('en', 'auth.getCode') }).count(), 1);
  assert.equal(await page.locator('form').count(), 1);
  assert.equal(await layoutShifts(page), 0);
  const flow: Flow = { page, product, link, lng: 'en' };
  await signInBySms(flow);
  await expectRoute(page, '/patientinfo');
});

test("'Get Verification code' pressed before the app runs is done once it has taken over", async ({
  product,
  admin,
  openSession,
}) => {
  const link = await admin.createLink({ signInMethod: 'sms' });
  const { page } = await openSession({ label: 'early tap' });
  let release!: () => void;
  const scripts = new Promise<void>((r) => (release = r));
  await page.route(/\/assets\/.*\.js$/, async (route) => {
    await scripts;
    await route.continue();
  });
  await page.goto(link.url, { waitUntil: 'commit' });
  await page.getByRole('button', { name: say('en', 'auth.getCode') }).click();
  release();
  await page.locator('#paylink-boot').waitFor({ state: 'detached' });
  await page.getByRole('button', { name: say('en', 'auth.codeSent') }).waitFor();
  const sms = await waitForMessage(product, { to: link.phone, channel: 'sms' });
  await page.getByLabel(say('en', 'auth.codeLabel')).fill(smsCode(sms));
  await page.getByRole('button', { name: say('en', 'auth.signIn') }).click();
  await expectRoute(page, '/patientinfo');
  const sent = await readOutbox(product, link.phone);
  assert.equal(sent.length, 1, 'one code sent');
});

test('what is typed into the static e-mail form before the app runs stays, with the focus, and its sending is done', async ({
  product,
  admin,
  openSession,
}) => {
  const link = await admin.createLink({ signInMethod: 'email' });
  const { page } = await openSession({ label: 'e-mail' });
  let release!: () => void;
  const scripts = new Promise<void>((r) => (release = r));
  await page.route(/\/assets\/.*\.js$/, async (route) => {
    await scripts;
    await route.continue();
  });
  await page.goto(`${link.url}&lng=es`, { waitUntil: 'commit' });
  const field = page.getByLabel(say('es', 'auth.emailLabel'));
  await field.click();
  await page.keyboard.type(link.email);
  await page.keyboard.press('Enter'); // sent before the app runs: kept, and done once it has taken over
  release();
  await page.locator('#paylink-boot').waitFor({ state: 'detached' });
  assert.equal(await field.inputValue(), link.email);
  assert.equal(await field.evaluate((el) => el === document.activeElement), true);
  assert.equal(await page.locator('form').count(), 1);
  await page.getByRole('button', { name: say('es', 'auth.emailLinkSent') }).waitFor();
  await waitForMessage(product, { to: link.email, channel: 'email' });
});
