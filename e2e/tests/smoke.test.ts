import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../support/browser.js';
import { startProduct, type RunningProduct } from '../support/server.js';

let product: RunningProduct;
let browser: Browser;
before(async () => {
  product = await startProduct();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await product?.stop();
});

test('the built app loads in Chromium', async () => {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(product.baseUrl);
  await page.locator('#root').waitFor();
  assert.deepEqual(errors, []);
  assert.ok((await page.locator('#root').innerText()).length > 0);
});
