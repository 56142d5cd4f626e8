/**
 * Lighthouse mobile (its default: Moto G Power emulation, simulated slow 4G and 4× CPU throttling) on /auth and
 * /patientinfo, with Debian's Chromium (CHROME_PATH) started by chrome-launcher. /patientinfo needs a signed-in
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
}

const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'];

async function audit(url: string, port: number, keepStorage: boolean): Promise<Omit<LighthouseFigure, 'route'>> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance'],
    disableStorageReset: keepStorage,
  });
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.message}`);
  // BENCH_LHR_DIR=dir keeps each full report (LCP element and phases, request chains) to see where the time goes.
  if (process.env.BENCH_LHR_DIR) {
    fs.mkdirSync(process.env.BENCH_LHR_DIR, { recursive: true });
    const name = new URL(url).pathname.replace(/\W+/g, '') || 'root';
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
  };
}

export async function runLighthouse(product: RunningProduct): Promise<LighthouseFigure[]> {
  process.env.CHROME_PATH ??= process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  const chrome = await chromeLauncher.launch({ chromeFlags: CHROME_FLAGS, chromePath: process.env.CHROME_PATH });
  try {
    const out: LighthouseFigure[] = [];
    const link = await createLink(product);
    out.push({ route: '/auth', ...(await audit(link.url, chrome.port, false)) });

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
    out.push({ route: '/patientinfo', ...(await audit(`${product.baseUrl}/patientinfo`, chrome.port, true)) });
    return out;
  } finally {
    chrome.kill();
  }
}
