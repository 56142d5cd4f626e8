import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS } from './chromium.js';

/** A fresh headless Chromium with its own profile directory. */
export async function launchBrowser(): Promise<Browser> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'paylink-chromium-'));
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [...CHROMIUM_ARGS, `--user-data-dir=${profile}`],
  });
  browser.on('disconnected', () => fs.rmSync(profile, { recursive: true, force: true }));
  return browser;
}
