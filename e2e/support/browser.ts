import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS } from './chromium.js';

/**
 * A fresh headless Chromium. Playwright gives every launch its own temporary profile (and refuses a
 * --user-data-dir flag), so no state leaks between test files.
 */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
}
