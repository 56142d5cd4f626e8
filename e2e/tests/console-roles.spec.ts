// The console per role and language: what each role sees (a billing user has no "New link" and no link actions; a
// coordinator has no Staff or Settings), two-step verification enrolment (QR drawn in the page, recovery codes) and
// a sign-in with it, and axe on every screen in English and Spanish on a desktop and a phone.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { expectAccessible } from '../support/a11y.js';
import { expectNoHorizontalScroll } from '../support/flows.js';
import { eventually } from '../support/wait.js';
import { consoleSignIn, totp } from '../support/console.js';
import { test } from '../support/test.js';

const nav = (page: Page) => page.getByRole('navigation').getByRole('list', { name: /^(Main|Principal)$/ });

test('roles: the console hides what a role cannot do', async ({ product, admin, staff }) => {
  const link = await admin.createLink();
  const { page, context } = await staff('billing', { viewport: { width: 1280, height: 900 } });
  await nav(page).getByRole('link', { name: 'Payments' }).waitFor();
  assert.equal(await page.getByRole('link', { name: 'New link' }).count(), 0, 'billing: no New link');
  assert.equal(await nav(page).getByRole('link', { name: 'Staff' }).count(), 0, 'billing: no Staff');
  await page.goto(`${product.baseUrl}/console/links/${link.id}`);
  await page.getByRole('heading', { level: 1, name: `${link.input.firstName} ${link.input.lastName}` }).waitFor();
  await page.getByRole('region', { name: 'Timeline' }).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Cancel link' }).count(), 0, 'billing: no link actions');
  await context.clearCookies();

  await consoleSignIn(page, product, await admin.demoCoordinator());
  await page.getByRole('link', { name: 'New link' }).waitFor();
  assert.equal(await nav(page).getByRole('link', { name: 'Staff' }).count(), 0, 'coordinator: no Staff');
  assert.equal(await nav(page).getByRole('link', { name: 'Settings' }).count(), 0, 'coordinator: no Settings');
});

test('two-step verification: enrolment with the QR code, recovery codes, sign-in with a code', async ({
  product,
  staff,
}) => {
  const { page, user } = await staff('coordinator', { viewport: { width: 390, height: 844 } });
  await page.goto(`${product.baseUrl}/console/security`);
  await page.getByRole('button', { name: 'Set up two-step verification' }).click();
  const qr = page.getByRole('img', { name: 'QR code to scan with the authenticator app' });
  await qr.waitFor();
  assert.match((await qr.getAttribute('src')) ?? '', /^data:image\/png;base64,/, 'the QR code is drawn in the page');
  await expectAccessible(page, 'console 2FA enrolment');
  const secret = (await page.locator('code.secret').textContent())!.trim();
  await page.getByLabel('6-digit code').fill('000000' === totp(secret) ? '111111' : '000000');
  await page.getByRole('button', { name: 'Turn on' }).click();
  await page.getByText('That code is not right. Check the app and try again.').waitFor();
  await page.getByLabel('6-digit code').fill(totp(secret));
  await page.getByRole('button', { name: 'Turn on' }).click();
  await page.getByText('Two-step verification is on.').waitFor();
  const codes = await page.getByRole('list', { name: 'Recovery codes' }).locator('li').allTextContents();
  assert.ok(codes.length >= 8, `recovery codes shown (${codes.length})`);
  await expectAccessible(page, 'console recovery codes');

  // Sign out (menu on a phone: open the navbar first) and back in: the code step, with a recovery code. Like a
  // person, wait until the navbar has stopped sliding open: a tap on Sign out while the panel still slides lands
  // on it (pointerdown and focus), the item moves, and the pointerup lands on the menu beside it, so there is no
  // click (the CI failure of stop 40; here in 2 of 3 tries ~150 ms after Menu, and in none of 60 after the wait).
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.locator('#console-nav.collapse.show').waitFor();
  const signOut = page
    .getByRole('menuitem', { name: 'Sign out' })
    .or(page.getByRole('button', { name: 'Sign out', exact: true }));
  await page.getByRole('button', { name: user.name }).click();
  await signOut.click();
  await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
  await page.getByLabel('E-mail').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Two-step verification' }).waitFor();
  await expectAccessible(page, 'console sign-in code step');
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await page.getByLabel('Recovery code').fill(codes[0]!.trim());
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.getByRole('heading', { level: 1, name: 'Links' }).waitFor();
});

test('every console screen is axe-clean in English and Spanish', async ({ product, admin, staff }) => {
  const link = await admin.createLink();
  const adminUser = await admin.createStaff('admin');
  for (const [lng, viewport] of [
    ['en', { width: 1280, height: 900 }],
    ['es', { width: 390, height: 844 }],
  ] as const) {
    const { page, close } = await staff(adminUser, { lng, viewport });
    const screens: [string, string][] = [
      ['', lng === 'es' ? 'Enlaces' : 'Links'],
      ['links/new', lng === 'es' ? 'Nuevo enlace' : 'New link'],
      [`links/${link.id}`, `${link.input.firstName} ${link.input.lastName}`],
      ['payments', lng === 'es' ? 'Pagos' : 'Payments'],
      ['funnel', lng === 'es' ? 'Embudo' : 'Funnel'],
      ['staff', lng === 'es' ? 'Personal' : 'Staff'],
      ['settings', lng === 'es' ? 'Configuración de la práctica' : 'Practice settings'],
      ['opt-outs', lng === 'es' ? 'Bajas de mensajes' : 'Opt-outs'],
      ['security', lng === 'es' ? 'Seguridad' : 'Security'],
    ];
    for (const [path, heading] of screens) {
      await page.goto(`${product.baseUrl}/console/${path}`);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      // Several cards may load at once (documents, messages): wait until none is loading.
      const loading = page.getByRole('status').filter({ hasText: /Loading|Cargando/ });
      await eventually(async () => (await loading.count()) === 0, { message: `${path || 'board'} loaded` });
      assert.equal(await page.locator('.alert-danger').count(), 0, `${path || 'board'} (${lng}) shows no error`);
      await expectAccessible(page, `console ${path || 'board'} (${lng})`);
      // The messaging screens (issue 14) on a phone: nothing wider than the screen.
      if (viewport.width < 400 && ['settings', 'opt-outs', 'security', `links/${link.id}`].includes(path))
        await expectNoHorizontalScroll(page);
    }
    await close();
  }
});
