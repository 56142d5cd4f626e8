import { defineConfig } from '@playwright/test';
import base from './playwright.config.js';

/**
 * The README's quick start as a CI step (issue 25): e2e/quick-start alone, one worker, after the browser suite —
 * its product is `npm start` itself, which rebuilds the apps and the compiled server the suite's products serve.
 */
export default defineConfig({
  ...base,
  testDir: 'e2e/quick-start',
  globalSetup: './e2e/quick-start/global-setup.ts',
  workers: 1,
  // Beside the suite's folder, never in it: Playwright empties its output folder when a run starts.
  outputDir: `${base.outputDir!}-quick-start`,
});
