// At the repository root, not in e2e/, so that `npx playwright test [filter]` works from where every other command
// runs (npm scripts, .ci/run) without `-c`, and the paths below read from the root like theirs.
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { launchOptions } from './e2e/support/chromium.js';
import { DESKTOP } from './e2e/support/session.js';

/**
 * Failure artifacts of the run (trace, screenshots, each browser's HTML and console, the server log), one folder per
 * failed test. Playwright empties this folder when a run starts, so each CI step names its own (E2E_ARTIFACTS) and
 * no later step clears an earlier step's failure.
 */
const ARTIFACTS = path.resolve(import.meta.dirname, process.env.E2E_ARTIFACTS ?? 'e2e/.artifacts/latest');
/** Every Playwright wait (locators, navigation); E2E_TIMEOUT_MS gives more on a slow machine. */
const WAIT_MS = Number(process.env.E2E_TIMEOUT_MS ?? 20_000);

export default defineConfig({
  testDir: 'e2e/tests',
  testMatch: '*.spec.ts',
  outputDir: ARTIFACTS,
  preserveOutput: 'failures-only',
  globalSetup: './e2e/support/global-setup.ts',
  // Test files run side by side, each with its own product; the tests of one file run in order, in one worker.
  fullyParallel: false,
  // Two workers on this 2-core machine: measured in docs/decisions/0188 (faster than one, and no failures).
  workers: Number(process.env.E2E_WORKERS ?? 2),
  // Never: a test that passes on the second try hides a bug (decision 0188).
  retries: 0,
  forbidOnly: !!process.env.CI,
  // The longest test (18 axe runs in the console) took up to 2.6 minutes here with other suites loading the two
  // cores (load average 20); twice that before we call a test hung. Each wait inside has its own 20 s.
  timeout: 360_000,
  expect: { timeout: WAIT_MS },
  reporter: [['list'], ['./e2e/support/summary-reporter.ts']],
  use: {
    browserName: 'chromium',
    // The system Chromium: Playwright never downloads a browser here.
    launchOptions: launchOptions(),
    viewport: DESKTOP,
    locale: 'en-US',
    actionTimeout: WAIT_MS,
    navigationTimeout: WAIT_MS,
    trace: 'retain-on-failure',
    screenshot: { mode: 'only-on-failure', fullPage: true },
  },
});
