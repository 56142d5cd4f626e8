import fs from 'node:fs';
import path from 'node:path';
import { serveArgs } from '../../scripts/server-entry.mjs';
import { ensureChromium } from './chromium.js';
import { PRODUCT_ROOT } from './server.js';

/**
 * Before any worker starts: a Chromium to drive (installed with apt-get when missing and root; the workers read the
 * path from CHROMIUM_PATH), and the built product, so a missing build fails once with what to do, not in every file.
 */
export default function globalSetup(): void {
  process.env.CHROMIUM_PATH = ensureChromium();
  if (!fs.existsSync(path.join(PRODUCT_ROOT, 'apps/web/dist/index.html'))) {
    throw new Error('The web app is not built: run `npm run build` first (npm run test:e2e does).');
  }
  if (PRODUCT_ROOT === path.resolve(import.meta.dirname, '../..')) serveArgs({ requireBuilt: true });
}
