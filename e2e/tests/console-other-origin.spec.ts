import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { serveArgs } from '../../scripts/server-entry.mjs';
import { uniquePhone } from '../support/admin.js';
import { demoCoordinator } from '../support/console.js';
import { waitForMessage } from '../support/outbox.js';
import { startProduct, type RunningProduct } from '../support/server.js';
import { test } from '../support/test.js';

/**
 * Issue 25: the console opened at another address than PUBLIC_URL. A coordinator who opened
 * http://127.0.0.1:<port>/console signed in, and then every create, send or refund answered "This request did not
 * come from the console". Without PUBLIC_URL (sandbox; it defaults to http://localhost:<port>) the console works at
 * whatever address of the server the browser used. With PUBLIC_URL set, the sign-in says where to open the console.
 */

/** The product as `npm start` runs it with no PUBLIC_URL in its environment: PUBLIC_URL is its default. */
async function startWithoutPublicUrl(): Promise<RunningProduct> {
  // startProduct names PUBLIC_URL (http://localhost:<port>, the server's own default); this takes it out of the
  // server's environment before the server reads it, so the server sees a PUBLIC_URL that was not set. (The product
  // fixture cannot express an unset variable, only more environment: this test starts and stops its own product.)
  return startProduct({}, [
    '--import',
    'data:text/javascript,delete process.env.PUBLIC_URL',
    ...serveArgs({ requireBuilt: true }),
  ]);
}

/** The same server at its loopback IP address instead of the name `localhost` PUBLIC_URL uses. */
const atLoopbackIp = (product: RunningProduct) => product.baseUrl.replace('//localhost:', '//127.0.0.1:');

async function signInAt(page: Page, base: string, who: { email: string; password: string }, es = false) {
  await page.goto(`${base}/console/sign-in`);
  await page.getByLabel(es ? 'Correo electrónico' : 'E-mail').fill(who.email);
  await page.getByLabel(es ? 'Contraseña' : 'Password').fill(who.password);
  await page.getByRole('button', { name: es ? 'Iniciar sesión' : 'Sign in' }).click();
}

test('PUBLIC_URL not set: a coordinator signs in at http://127.0.0.1:<port>/console, creates a link and sends it', async ({
  openSession,
}, testInfo) => {
  const product = await startWithoutPublicUrl();
  try {
    const base = atLoopbackIp(product);
    const { page, close } = await openSession({ label: 'coordinator' });
    await signInAt(page, base, await demoCoordinator(product));
    await page.getByRole('heading', { level: 1, name: 'Links' }).waitFor();
    assert.equal(new URL(page.url()).origin, base, 'still at the address the coordinator typed');

    await page.getByRole('link', { name: 'New link' }).click();
    await page.getByRole('heading', { level: 1, name: 'New link' }).waitFor();
    const phone = uniquePhone();
    await page.getByLabel('First name').fill('Lucia');
    await page.getByLabel('Last name').fill('Loopback');
    await page.getByLabel('Mobile phone').fill(`(${phone.slice(2, 5)}) ${phone.slice(5, 8)}-${phone.slice(8)}`);
    await page.getByLabel('Address').fill('12 Palm Street');
    await page.getByLabel('City').fill('Miami');
    await page.getByLabel('State', { exact: true }).fill('FL');
    await page.getByLabel('ZIP code').fill('33101');
    await page.getByLabel('Procedure (shown to the patient)').fill('Rhinoplasty consultation');
    await page.getByRole('button', { name: 'Create link' }).click();
    await expectNoRefusal(page, page.getByText('Link created for Lucia Loopback.'));
    // The personal link still points at PUBLIC_URL (its default), where patients open it.
    const url = (await page.getByTestId('link-url').textContent())!.trim();
    assert.equal(new URL(url).origin, product.baseUrl);

    await page.getByRole('button', { name: 'Send by SMS' }).click();
    await expectNoRefusal(page, page.getByText('Sent by SMS. It is in the outbox.'));
    await waitForMessage(product, { to: phone, channel: 'sms', match: (m) => m.text.includes(url) });
    // Closed while its product still runs (the test stops that product itself).
    await close();
  } catch (err) {
    // The product fixture keeps the log of the file's product; this test's failures are in this one's.
    await testInfo.attach('server log without PUBLIC_URL (last 20 kB)', {
      body: product.output().slice(-20_000),
      contentType: 'text/plain',
    });
    throw err;
  } finally {
    await product.stop();
  }
});

test('PUBLIC_URL set: the sign-in at another address says where the console is served, in English and Spanish', async ({
  product,
  openSession,
}) => {
  const base = atLoopbackIp(product);
  const who = await demoCoordinator(product);
  for (const [locale, es, text] of [
    ['en-US', false, `This console is served at ${product.baseUrl}/console; open it there.`],
    ['es-MX', true, `Esta consola se abre en ${product.baseUrl}/console; ábrala en esa dirección.`],
  ] as const) {
    const { page, close } = await openSession({ label: locale, locale });
    await signInAt(page, base, who, es);
    await page.getByRole('alert').filter({ hasText: text }).waitFor();
    assert.equal((await page.context().cookies()).length, 0, 'no staff session was started');
    await close();
  }
  // At the address it names, the same coordinator signs in.
  const { page, close } = await openSession({ label: 'at PUBLIC_URL' });
  await signInAt(page, product.baseUrl, who);
  await page.getByRole('heading', { level: 1, name: 'Links' }).waitFor();
  await close();
});

/** Waits for `success`, failing at once with the console's alert when the server refused instead. */
async function expectNoRefusal(page: Page, success: ReturnType<Page['getByText']>): Promise<void> {
  const alert = page.getByRole('alert').filter({ hasText: /\S/ });
  await success.or(alert).first().waitFor();
  if (!(await success.isVisible())) {
    throw new Error(`The console refused: ${(await alert.first().textContent())?.trim()}`);
  }
}
