import { defineConfig } from '@playwright/test';
import base from './playwright.config.js';

/**
 * The README's quick start as a CI step (issue 25): e2e/quick-start alone, one worker, after the browser suite —
 * its product is `npm start` itself, which rebuilds the apps and the compiled server the suite's products serve.
 */
export default defineConfig({
  ...base,
  testDir: 'e2e/quick-start',
  workers: 1,
  outputDir: process.env.E2E_ARTIFACTS
    ? base.outputDir
    : path.resolve(import.meta.dirname, 'e2e/.artifacts/quick-start'),
});
