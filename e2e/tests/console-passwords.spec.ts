// Issue 29, item 3: staff passwords in a real browser. 1) An admin resets a coordinator's password on the staff
// screen (a temporary password shown once); the coordinator signs in with it and the console makes them choose a new
// one before anything else. 2) In Spanish, a coordinator uses "¿Olvidó su contraseña?", follows the e-mailed link
// (from the sandbox outbox), sets a new password and signs in with it; the link does not work twice. axe on each new
// screen.
import assert from 'node:assert/strict';
import { expectAccessible } from '../support/a11y.js';
import { consoleSignIn } from '../support/console.js';
import { test } from '../support/test.js';

test('an admin resets a coordinator’s password; the coordinator must choose a new one at sign-in', async ({
  product,
  admin,
  staff,
  openSession,
}) => {
  const coordinator = await admin.createStaff('coordinator');
  const { page } = await staff('admin', { viewport: { width: 1280, height: 900 } });
  await page.goto(`${product.baseUrl}/console/staff`);
  const row = page.locator(`tr[data-staff-email="${coordinator.email}"]`);
  await row.getByRole('button', { name: `Reset password ${coordinator.name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Reset the password of ${coordinator.name}?` });
  await dialog.getByRole('button', { name: 'Reset password' }).click();
  const shown = page.getByRole('status', { name: `Temporary password for ${coordinator.name}` });
  await shown.waitFor();
  const temporary = (await page.getByTestId('temporary-password').textContent())!.trim();
  assert.ok(temporary.length >= 12, 'a temporary password is shown');
  await expectAccessible(page, 'console staff, temporary password');

  // The coordinator, on a phone: the old password no longer works; the temporary one leads to a new password first.
  const phone = await openSession({ viewport: { width: 390, height: 844 }, label: 'coordinator' });
  const p = phone.page;
  await p.goto(`${product.baseUrl}/console/sign-in`);
  await p.getByLabel('E-mail').fill(coordinator.email);
  await p.getByLabel('Password').fill(coordinator.password);
  await p.getByRole('button', { name: 'Sign in' }).click();
  await p.getByText('The e-mail or password is wrong.').waitFor();
  await p.getByLabel('Password').fill(temporary);
  await p.getByRole('button', { name: 'Sign in' }).click();
  await p.getByRole('heading', { level: 1, name: 'Choose a new password' }).waitFor();
  await expectAccessible(p, 'console required new password');
  // Nothing else opens until it is done.
  await p.goto(`${product.baseUrl}/console/payments`);
  await p.getByRole('heading', { level: 1, name: 'Choose a new password' }).waitFor();
  const newPassword = `mine-${Date.now()}-long-enough`;
  await p.getByLabel('Temporary password').fill(temporary);
  await p.getByLabel('New password', { exact: true }).fill(newPassword);
  await p.getByLabel('New password again').fill(newPassword);
  await p.getByRole('button', { name: 'Change password' }).click();
  await p.getByRole('heading', { level: 1, name: 'Links' }).waitFor();
  await phone.context.clearCookies();
  await consoleSignIn(p, product, { email: coordinator.email, password: newPassword });
});

test('forgot password, in Spanish: the e-mailed link sets a new password once', async ({
  product,
  admin,
  outbox,
  openSession,
}) => {
  const coordinator = await admin.createStaff('coordinator');
  const { page } = await openSession({ viewport: { width: 390, height: 844 }, label: 'coordinator' });
  await page.goto(`${product.baseUrl}/console/sign-in`);
  await page.getByRole('button', { name: 'Español' }).click();
  await page.getByRole('link', { name: '¿Olvidó su contraseña?' }).click();
  await page.getByRole('heading', { level: 1, name: 'Olvidó su contraseña' }).waitFor();
  await expectAccessible(page, 'console forgot password (es)');
  const seen = await outbox.ids(coordinator.email);
  await page.getByLabel('Correo electrónico').fill(coordinator.email);
  await page.getByRole('button', { name: 'Enviar el enlace' }).click();
  await page.getByText('Si esa dirección pertenece a una cuenta del personal, le enviamos un enlace.').waitFor();

  const mail = await outbox.waitFor({ to: coordinator.email, channel: 'email', seen, match: /reset-password#token=/ });
  const url = /(\S+\/console\/reset-password#token=plr_[A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
  assert.ok(url.startsWith(product.baseUrl), `the link opens this console (${url})`);
  await page.goto(url);
  await page.getByRole('heading', { level: 1, name: 'Establecer una nueva contraseña' }).waitFor();
  await expectAccessible(page, 'console reset link page (es)');
  const newPassword = `olvido-${Date.now()}-bastante-larga`;
  await page.getByLabel('Nueva contraseña', { exact: true }).fill(newPassword);
  await page.getByLabel('Repita la nueva contraseña').fill(newPassword);
  await page.getByRole('button', { name: 'Establecer la contraseña' }).click();
  await page.getByText('Se estableció su contraseña. Inicie sesión con ella.').waitFor();
  await page.getByRole('link', { name: 'Ir al inicio de sesión' }).click();
  await consoleSignIn(page, product, { email: coordinator.email, password: newPassword }, { lng: 'es' });

  // The link worked once.
  await page.goto(url);
  await page.getByLabel('Nueva contraseña', { exact: true }).fill(`${newPassword}-otra`);
  await page.getByLabel('Repita la nueva contraseña').fill(`${newPassword}-otra`);
  await page.getByRole('button', { name: 'Establecer la contraseña' }).click();
  await page.getByText('Este enlace ya se usó, venció o no es válido. Pida uno nuevo.').waitFor();
});
