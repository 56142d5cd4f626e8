import { ensureChromium } from '../support/chromium.js';

/** Only a Chromium to drive: the quick start's `npm start` builds the product itself. */
export default function globalSetup(): void {
  process.env.CHROMIUM_PATH = ensureChromium();
}
