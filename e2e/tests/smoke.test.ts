import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Browser } from 'playwright-core';
import type { RunningProduct } from '../support/server.js';
import { setUpProduct } from '../support/suite.js';

let product: RunningProduct;
let browser: Browser;
setUpProduct((p, b) => ((product = p), (browser = b)));

test('the built app loads in Chromium', async () => {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(product.baseUrl);
  await page.locator('#root').waitFor();
  assert.deepEqual(errors, []);
  assert.ok((await page.locator('#root').innerText()).length > 0);
});
