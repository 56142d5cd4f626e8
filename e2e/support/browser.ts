import { chromium, type Browser } from 'playwright-core';
import { launchOptions } from './chromium.js';

/**
 * A fresh headless Chromium, for the scripts that drive the product outside the test runner (docs screenshots, the
 * bench); the browser suite gets its browser from Playwright Test with the same launch options. Playwright gives every
 * launch its own temporary profile (and refuses a --user-data-dir flag), so no state leaks between runs.
 */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch(launchOptions());
}
