// The web shell in a real browser: a failed page chunk reloads once, focus moves to the heading, the back button is
// neutralised right after sign-in, the language survives a reload (its first namespace preloaded with the page),
// the first screen comes with the HTML (/patientinfo's loading frame, /auth's form with the link's method), storage
// holds no readable patient data or token, the production build writes nothing to the console, and web-vitals are
// stored per route (checked on PostgreSQL).
import assert from 'node:assert/strict';
import pg from 'pg';
import { openLink, signInBySms, expectRoute } from '../support/flows.js';
import { test } from '../support/test.js';
import { eventually } from '../support/wait.js';

test.use({ viewport: { width: 390, height: 844 } });

test('web shell: chunk reload, focus, back button, language, storage, console, vitals', async ({
  product,
  admin,
  page,
  context,
}) => {
  const consoleLines: string[] = [];
  page.on('console', (m) => consoleLines.push(`${m.type()}: ${m.text()}`));
  let chunkRequests = 0;
  await page.route(/\/assets\/auth-page-.*\.js$/, async (route) =>
    chunkRequests++ === 0 ? route.abort() : route.continue(),
  );
  const link = await admin.createLink({ signInMethod: 'sms' });
  const f = { page, product, link, lng: 'en' as const };
  await openLink(f);
  await page.getByRole('button', { name: 'Get Verification code' }).waitFor();
  assert.equal(chunkRequests, 2, 'the failed chunk was fetched again after one reload');

  await signInBySms(f);
  await expectRoute(page, '/patientinfo');
  await page.getByRole('button', { name: 'AGREE' }).waitFor();
  assert.equal(
    await page.evaluate(() => `${document.activeElement?.tagName}:${document.activeElement?.textContent}`),
    'H1:Patient information',
  );
  await page.goBack();
  await page.getByRole('button', { name: 'AGREE' }).waitFor();
  assert.equal(new URL(page.url()).pathname, '/patientinfo');

  await page.getByRole('button', { name: 'Español' }).click();
  await page.getByRole('button', { name: 'ACEPTO' }).waitFor();
  const localeRequests: string[] = [];
  page.on('request', (r) => {
    const { pathname } = new URL(r.url());
    if (pathname.startsWith('/locales/')) localeRequests.push(`${pathname} ${r.resourceType()}`);
  });
  await page.reload();
  await page.getByRole('button', { name: 'ACEPTO' }).waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'es');
  // The chosen language's first namespace comes with the page (the server's Link preload, guessed from the cookie
  // the app sets with the choice), not after the JavaScript runs: one request, and it is the preload ("other").
  assert.deepEqual(
    localeRequests.filter((r) => r.includes('/common.json')),
    ['/locales/es/common.json other'],
  );

  // /patientinfo's loading frame from the HTML (decision 0184): React replaced it, one heading on the page, and
  // with the JavaScript blocked it is what the patient sees, in the chosen language, as a loading status.
  assert.equal(await page.locator('#paylink-boot').count(), 0);
  assert.equal(await page.getByRole('heading', { level: 1 }).count(), 1);
  const noScript = await context.newPage();
  await noScript.route(/\/assets\/.*\.js$/, (route) => route.abort());
  await noScript.goto(`${product.baseUrl}/patientinfo`);
  await noScript.getByRole('heading', { level: 1, name: 'Información del paciente' }).waitFor();
  assert.equal(await noScript.getByRole('status').textContent(), 'Cargando...');
  assert.equal(await noScript.evaluate(() => document.documentElement.lang), 'es');
  await noScript.close();

  const storage = await page.evaluate(() => JSON.stringify(localStorage));
  assert.match(storage, /U2FsdGVkX1/, 'the persisted state is there, AES-encrypted');
  for (const value of [link.input.lastName, link.input.address, link.phone]) {
    assert.ok(!storage.includes(value), `patient data (${value}) is not readable in storage`);
  }
  assert.ok(!/eyJ[A-Za-z0-9_-]{10,}\./.test(storage), 'no session token in storage');

  await page.goto(`${product.baseUrl}/nothing`);
  await page.getByRole('heading', { level: 1 }).waitFor();
  await page.close();
  assert.deepEqual(
    consoleLines.filter((l) => !l.startsWith('error: Failed to load resource')),
    [],
    'the production build writes nothing to the console',
  );
  if (product.env.DATABASE_URL) {
    const c = new pg.Client({ connectionString: product.env.DATABASE_URL });
    await c.connect();
    try {
      await eventually(
        async () =>
          (await c.query(`select count(*)::int as n from web_vital where route = '/patientinfo'`)).rows[0].n > 0,
        { message: 'web-vitals stored for /patientinfo' },
      );
    } finally {
      await c.end();
    }
  }
});

test("/auth's first screen comes with the HTML: the link's sign-in heading, instruction and form before any JavaScript", async ({
  product,
  admin,
  page,
  context,
  openSession,
}) => {
  await context.route(/\/assets\/.*\.js$/, (route) => route.abort());
  const sms = await admin.createLink({ signInMethod: 'sms' });
  await page.goto(`${product.baseUrl}/auth?id=${sms.id}`);
  await page.getByRole('heading', { level: 1, name: 'Verify your phone number' }).waitFor();
  assert.match(
    (await page.locator('#paylink-boot .card-panel > p').first().textContent()) ?? '',
    /text a 6-digit verification code/,
  );
  // The server writes the whole first screen, form included (decision 0226; e2e/tests/first-screen.spec.ts).
  await page.getByRole('button', { name: 'Get Verification code' }).waitFor();
  const email = await admin.createLink({ signInMethod: 'email' });
  await page.goto(`${product.baseUrl}/auth?id=${email.id}&lng=es`);
  await page.getByRole('heading', { level: 1, name: 'Inicie sesión con su correo electrónico' }).waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'es');
  // An unknown link gets no frame: what it is, only the server's answer to the app can say.
  await page.goto(`${product.baseUrl}/auth?id=AbCdEfGhIjKlMnOpQrStUv12`);
  assert.equal(await page.locator('#paylink-boot').count(), 0);
  await context.close();

  // With the JavaScript, React takes over: one heading, the frame gone, the form there.
  const { page: app } = await openSession({ label: 'with JavaScript' });
  await app.goto(`${product.baseUrl}/auth?id=${sms.id}`);
  await app.getByRole('button', { name: 'Get Verification code' }).waitFor();
  assert.equal(await app.locator('#paylink-boot').count(), 0);
  assert.equal(await app.getByRole('heading', { level: 1 }).count(), 1);
});
