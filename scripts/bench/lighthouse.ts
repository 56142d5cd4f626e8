/**
 * Lighthouse mobile (its default: Moto G Power emulation, slow 4G and 4× CPU throttling) on /auth and /patientinfo,
 * with Debian's Chromium (CHROME_PATH) started by chrome-launcher. Two ways to throttle (issue 30):
 * - `simulate` (Lighthouse's default): the page loads unthrottled and Lantern computes the figures from its trace;
 * - `devtools`: Chrome itself throttles the network (562.5 ms round trip, 1.6 Mbps down) and the CPU (4×) while the
 *   page loads, and the figures are what was observed: what a slow phone sees, without Lantern's guess about which
 *   requests a paint needed (docs/performance.md). /patientinfo needs a signed-in
 * patient: we sign in through the UI in the same browser (playwright over CDP), clear the HTTP cache, and let
 * Lighthouse load the page with storage kept (the persisted state and the session cookie) but a cold cache.
 */
import fs from 'node:fs';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { createLink } from '../../e2e/support/admin.js';
import { signInBySms, type Flow } from '../../e2e/support/flows.js';
import type { RunningProduct } from './product.js';

export interface LighthouseFigure {
  route: string;
  score: number;
  lcpMs: number;
  fcpMs: number;
  cls: number;
  tbtMs: number;
  speedIndexMs: number;
  /** LCP as seen in the unthrottled trace (before Lantern's simulation): when the frame actually showed. */
  observedLcpMs: number;
  /** Lighthouse's measure of this host's CPU speed; the simulated figures scale with it (docs/performance.md). */
  benchmarkIndex: number;
  /** The LCP element's selector as the report names it (which paint it was). */
  lcpElement?: string;
}

const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'];

/** The selector of the LCP element in the `largest-contentful-paint-element` audit's details (a table of tables). */
function lcpSelector(details: unknown): string | undefined {
  const items = (details as { items?: { items?: { node?: { selector?: string } }[] }[] } | undefined)?.items;
  return items?.[0]?.items?.[0]?.node?.selector;
}

export type Throttling = 'simulate' | 'devtools';

async function audit(
  url: string,
  port: number,
  keepStorage: boolean,
  throttling: Throttling,
): Promise<Omit<LighthouseFigure, 'route'>> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance'],
    disableStorageReset: keepStorage,
    throttlingMethod: throttling,
  });
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.message}`);
  // BENCH_LHR_DIR=dir keeps each full report (LCP element and phases, request chains) to see where the time goes.
  if (process.env.BENCH_LHR_DIR) {
    fs.mkdirSync(process.env.BENCH_LHR_DIR, { recursive: true });
    const name = (new URL(url).pathname.replace(/\W+/g, '') || 'root') + (throttling === 'devtools' ? '.devtools' : '');
    fs.writeFileSync(path.join(process.env.BENCH_LHR_DIR, `${name}.json`), JSON.stringify(lhr, null, 1));
    // The observed (unthrottled) trace too: which main-thread task is which (open it in Chrome's Performance panel).
    if (result.artifacts?.Trace) {
      fs.writeFileSync(
        path.join(process.env.BENCH_LHR_DIR, `${name}.trace.json`),
        JSON.stringify(result.artifacts.Trace),
      );
    }
  }
  const a = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  return {
    score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    lcpMs: Math.round(a('largest-contentful-paint')),
    fcpMs: Math.round(a('first-contentful-paint')),
    cls: Math.round(a('cumulative-layout-shift') * 1000) / 1000,
    tbtMs: Math.round(a('total-blocking-time')),
    speedIndexMs: Math.round(a('speed-index')),
    observedLcpMs: Math.round(
      (lhr.audits.metrics?.details as { items?: { observedLargestContentfulPaint?: number }[] } | undefined)?.items?.[0]
        ?.observedLargestContentfulPaint ?? NaN,
    ),
    benchmarkIndex: Math.round(lhr.environment?.benchmarkIndex ?? NaN),
    lcpElement: lcpSelector(lhr.audits['largest-contentful-paint-element']?.details),
  };
}

export async function runLighthouse(
  product: RunningProduct,
  throttling: Throttling = 'simulate',
): Promise<LighthouseFigure[]> {
  process.env.CHROME_PATH ??= process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  const chrome = await chromeLauncher.launch({ chromeFlags: CHROME_FLAGS, chromePath: process.env.CHROME_PATH });
  try {
    const out: LighthouseFigure[] = [];
    const link = await createLink(product);
    out.push({ route: '/auth', ...(await audit(link.url, chrome.port, false, throttling)) });

    const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
    try {
      const context = browser.contexts()[0] ?? (await browser.newContext());
      const page = await context.newPage();
      const flow: Flow = { page, product, link, lng: 'en' };
      await page.goto(link.url);
      await signInBySms(flow);
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.clearBrowserCache');
      await page.close();
    } finally {
      // Disconnects playwright only; chrome-launcher owns the browser.
      await browser.close().catch(() => undefined);
    }
    out.push({
      route: '/patientinfo',
      ...(await audit(`${product.baseUrl}/patientinfo`, chrome.port, true, throttling)),
    });
    return out;
  } finally {
    chrome.kill();
  }
}
