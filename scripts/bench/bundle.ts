/**
 * Bytes a phone downloads to use /auth and /patientinfo, from Chromium's own network log (headless, cold cache):
 * every response until the page is usable (its main control is visible and the network is idle). For each we keep
 * the bytes on the wire (as negotiated: Brotli from our server) and the gzip -9 size of the decoded body (the budget's
 * unit, comparable whatever the server sends).
 */
import { gzipSync } from 'node:zlib';
import type { Page, Response } from 'playwright-core';
import { launchBrowser } from '../../e2e/support/browser.js';
import { sayRe, signInBySms, type Flow } from '../../e2e/support/flows.js';
import { createLink } from '../../e2e/support/admin.js';
import type { RunningProduct } from './product.js';

export interface Transfer {
  url: string;
  type: string;
  encoding: string | null;
  wireBytes: number;
  rawBytes: number;
  gzipBytes: number;
}
export interface RouteBundle {
  route: string;
  js: { gzipKb: number; wireKb: number; rawKb: number; files: number };
  css: { gzipKb: number; wireKb: number };
  total: { gzipKb: number; wireKb: number; requests: number };
  transfers: Transfer[];
}

const kb = (n: number) => Math.round((n / 1024) * 10) / 10;

function record(page: Page): { done: () => Promise<Transfer[]> } {
  const pending: Promise<Transfer | undefined>[] = [];
  const onResponse = (r: Response) => {
    pending.push(
      (async () => {
        const url = new URL(r.url());
        if (url.protocol === 'data:' || r.status() === 304) return undefined;
        const body = await r.body().catch(() => Buffer.alloc(0));
        const sizes = await r
          .request()
          .sizes()
          .catch(() => ({ responseBodySize: body.length, responseHeadersSize: 0 }));
        return {
          url: url.pathname,
          type: r.request().resourceType(),
          encoding: (await r.headerValue('content-encoding').catch(() => null)) ?? null,
          wireBytes: sizes.responseBodySize + sizes.responseHeadersSize,
          rawBytes: body.length,
          gzipBytes: body.length ? gzipSync(body, { level: 9 }).length : 0,
        };
      })(),
    );
  };
  page.on('response', onResponse);
  return {
    done: async () => {
      page.off('response', onResponse);
      return (await Promise.all(pending)).filter((t): t is Transfer => !!t);
    },
  };
}

function summarise(route: string, transfers: Transfer[]): RouteBundle {
  const js = transfers.filter((t) => t.type === 'script' || /\.m?js$/.test(t.url));
  const css = transfers.filter((t) => t.type === 'stylesheet' || /\.css$/.test(t.url));
  const sum = (ts: Transfer[], k: 'wireBytes' | 'gzipBytes' | 'rawBytes') => ts.reduce((a, t) => a + t[k], 0);
  return {
    route,
    js: {
      gzipKb: kb(sum(js, 'gzipBytes')),
      wireKb: kb(sum(js, 'wireBytes')),
      rawKb: kb(sum(js, 'rawBytes')),
      files: js.length,
    },
    css: { gzipKb: kb(sum(css, 'gzipBytes')), wireKb: kb(sum(css, 'wireBytes')) },
    total: {
      gzipKb: kb(sum(transfers, 'gzipBytes')),
      wireKb: kb(sum(transfers, 'wireBytes')),
      requests: transfers.length,
    },
    transfers,
  };
}

async function settle(page: Page) {
  await page.waitForLoadState('networkidle').catch(() => undefined);
}

export async function measureBundles(product: RunningProduct): Promise<RouteBundle[]> {
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 360, height: 640 }, isMobile: true });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const link = await createLink(product);

    // /auth, cold: usable when the "get code" button shows.
    let rec = record(page);
    await page.goto(link.url);
    await page.getByRole('button', { name: sayRe('en', 'auth.getCode') }).waitFor();
    await settle(page);
    const auth = summarise('/auth', await rec.done());

    // /patientinfo: sign in, then a cold reload of /patientinfo (what a returning patient's phone downloads).
    const flow: Flow = { page, product, link, lng: 'en' };
    await signInBySms(flow);
    await settle(page);
    rec = record(page);
    await page.reload();
    await page.getByRole('button', { name: sayRe('en', 'patientInfo.agree') }).waitFor();
    await settle(page);
    const info = summarise('/patientinfo', await rec.done());
    return [auth, info];
  } finally {
    await browser.close();
  }
}
