import assert from 'node:assert/strict';
import { test } from '../support/test.js';

test('the built app loads in Chromium', async ({ product, page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(product.baseUrl);
  await page.locator('#root').waitFor();
  assert.deepEqual(errors, []);
  assert.ok((await page.locator('#root').innerText()).length > 0);
});
