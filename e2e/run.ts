import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensureChromium } from './support/chromium.js';
import { PRODUCT_ROOT, ROOT } from './support/server.js';
import { ARTIFACTS } from './support/session.js';

/**
 * The browser suite: finds (or installs) Chromium, then runs every e2e/tests/*.test.ts with Node's test runner.
 * Each test file starts its own product (support/server.ts) so files cannot disturb each other.
 */
const chromium = ensureChromium();
if (!fs.existsSync(path.join(PRODUCT_ROOT, 'apps/web/dist/index.html'))) {
  console.error('The web app is not built: run `npm run build` first (npm run test:e2e does).');
  process.exit(1);
}
// Failure artifacts of this run only (screenshots, HTML, logs: see docs/testing.md).
fs.rmSync(ARTIFACTS, { recursive: true, force: true });
const dir = path.join(ROOT, 'e2e/tests');
const only = process.argv.slice(2);
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.test.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .map((f) => path.join('e2e/tests', f));
const r = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=1', '--test-reporter=spec', ...files],
  { cwd: ROOT, stdio: 'inherit', env: { ...process.env, CHROMIUM_PATH: chromium } },
);
process.exit(r.status ?? 1);
