// The practice console's shell in a real browser: served at /console by the product, deep links fall back to its
// index.html, a signed-out visit lands on the sign-in screen (keeping where it was going), EN/ES switch, axe-clean
// in both languages on a phone and a desktop.
import assert from 'node:assert/strict';
import { expectAccessible } from '../support/a11y.js';
import { test } from '../support/test.js';

test('console: served at /console, deep links, sign-in screen in EN and ES, axe-clean', async ({
  product,
  openSession,
}) => {
  const res = await fetch(`${product.baseUrl}/console/links/abc123?x=1`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /text\/html/);
  assert.match(await res.text(), /\/console\/assets\//, 'the console index.html, not the patient app');
  assert.equal((await fetch(`${product.baseUrl}/console/assets/nope.js`)).status, 404);

  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    const { page, close } = await openSession({ viewport });
    await page.goto(`${product.baseUrl}/console/sign-in?next=%2Flinks%2Fabc123`);
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await expectAccessible(page, `console sign-in EN ${viewport.width}px`);

    // Keyboard: the heading has focus; Tab reaches the e-mail field first, then the password.
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('type')), 'email');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('type')), 'password');

    // Validation before any request, announced on the fields.
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Enter an e-mail address like name@example.com.').waitFor();
    assert.equal(await page.getByLabel('E-mail').getAttribute('aria-invalid'), 'true');

    await page.getByRole('button', { name: 'Español' }).click();
    await page.getByRole('heading', { level: 1, name: 'Iniciar sesión' }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'es');
    await expectAccessible(page, `console sign-in ES ${viewport.width}px`);
    await close();
  }
});

test('console: a notification switch follows the click at once, is saved, and stays off after a reload', async ({
  product,
  staff,
}) => {
  const { page } = await staff('coordinator', { viewport: { width: 1280, height: 900 } });
  await page.goto(`${product.baseUrl}/console/security`);
  const paid = page.getByRole('switch', { name: 'When a link I created is paid' });
  assert.ok(await paid.isChecked());
  // uncheck() fails when the click does not change the switch's state right away.
  await paid.uncheck();
  await page.getByRole('status').filter({ hasText: 'Notifications saved.' }).waitFor();
  await page.reload();
  await page.getByRole('switch', { name: 'When a link I created is paid' }).waitFor();
  assert.equal(await page.getByRole('switch', { name: 'When a link I created is paid' }).isChecked(), false);
});
