import { after, before } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './browser.js';
import { startProduct, type RunningProduct } from './server.js';

/**
 * One product (fresh database, free ports) and one Chromium per test file: started before the file's tests, stopped
 * after them. `use` receives both once they are up.
 */
export function setUpProduct(
  use: (product: RunningProduct, browser: Browser) => void,
  env: Record<string, string> = {},
): void {
  let product: RunningProduct | undefined;
  let browser: Browser | undefined;
  before(async () => {
    product = await startProduct(env);
    browser = await launchBrowser();
    use(product, browser);
  });
  after(async () => {
    await browser?.close();
    await product?.stop();
  });
}
