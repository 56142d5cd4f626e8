// PCI DSS 6.4.3 / 11.6.1 in a real browser (issue 11): the patient app's scripts carry Subresource Integrity and the
// payment page's CSP allows exactly the inventoried sources; an admin opens "Payment page security" in the console,
// sees the inventory (our chunks with integrity, the gateway's scripts by origin) and runs the tamper check, which
// finds the page as built. A coordinator has no such screen.
import assert from 'node:assert/strict';
import { expectAccessible } from '../support/a11y.js';
import { expectNoHorizontalScroll } from '../support/flows.js';
import { test } from '../support/test.js';

test('the payment page: SRI on every script tag, an import map with the integrity of every chunk, a strict CSP', async ({
  product,
}) => {
  const res = await fetch(`${product.baseUrl}/paymentauthorization`);
  const html = await res.text();
  const tags = [...html.matchAll(/<script\b[^>]*\ssrc="[^"]+"[^>]*>/g)].map((m) => m[0]);
  assert.ok(tags.length > 0);
  for (const tag of tags) assert.match(tag, /integrity="sha384-/, tag);
  const map = JSON.parse(/<script type="importmap">(.*?)<\/script>/s.exec(html)![1]!) as {
    integrity: Record<string, string>;
  };
  assert.ok(Object.keys(map.integrity).length >= 5, 'every chunk, lazy ones included');
  const csp = res.headers.get('content-security-policy') ?? '';
  assert.match(csp, /script-src 'self' 'sha256-[^']+'/);
  assert.match(csp, /report-uri [^;]+\/api\/csp-report/);
});

test('console: an admin reviews the payment page scripts and runs the tamper check; a coordinator cannot', async ({
  product,
  admin,
  staff,
}) => {
  const adminUser = await admin.createStaff('admin');
  for (const [viewport, lang] of [
    [{ width: 1280, height: 900 }, 'en'],
    [{ width: 390, height: 844 }, 'es'],
  ] as const) {
    const { page, close } = await staff(adminUser, { viewport, locale: 'en-US' });
    await page.evaluate((l) => localStorage.setItem('paylink.console.lng', l), lang);
    await page.goto(`${product.baseUrl}/console/compliance`);
    const title = lang === 'en' ? 'Payment page security' : 'Seguridad de la página de pago';
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    const scripts = page.getByRole('region', {
      name: lang === 'en' ? 'Scripts of the payment page' : 'Scripts de la página de pago',
    });
    await scripts.getByText('/hosted-payments/Checkout.js').first().waitFor();
    assert.ok((await scripts.getByText(/^sha384-/).count()) >= 5, 'our chunks are listed with their integrity');
    await page.getByRole('button', { name: lang === 'en' ? 'Run the check now' : 'Revisar ahora' }).click();
    await page.getByText(lang === 'en' ? 'No changes found.' : 'No se encontraron cambios.').waitFor();
    await expectAccessible(page, `console compliance ${lang} ${viewport.width}px`);
    await expectNoHorizontalScroll(page);
    await close();
  }

  const { page } = await staff('demo', { viewport: { width: 1280, height: 900 } });
  await page.getByRole('link', { name: 'New link' }).waitFor();
  assert.equal(await page.getByRole('link', { name: 'Payment page security' }).count(), 0);
});
