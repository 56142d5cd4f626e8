import type { BrowserContext, Page } from 'playwright-core';

export const PHONE = { width: 360, height: 640 } as const;
export const DESKTOP = { width: 1280, height: 800 } as const;
export const SCREENSHOT_PHONE = { width: 390, height: 844 } as const;

/** A browser context (one "person's browser") with its first page and a record of what went wrong in it. */
export interface Session {
  context: BrowserContext;
  page: Page;
  /** Uncaught exceptions in the app's pages. */
  pageErrors: string[];
  /** console.error / warning lines, kept for failure reports. */
  console: string[];
}

/**
 * Records uncaught exceptions and console errors/warnings of every page the context opens (call it before the
 * first page is created, or pass that page, so nothing is missed).
 */
export function watchContext(context: BrowserContext, page: Page): Session {
  const pageErrors: string[] = [];
  const consoleLines: string[] = [];
  const watched = new WeakSet<Page>();
  const watch = (p: Page) => {
    if (watched.has(p)) return;
    watched.add(p);
    p.on('pageerror', (e) => pageErrors.push(`${p.url()}: ${e.message}`));
    p.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') consoleLines.push(`[${m.type()}] ${p.url()}: ${m.text()}`);
    });
  };
  context.on('page', watch);
  for (const p of context.pages()) watch(p);
  watch(page);
  return { context, page, pageErrors, console: consoleLines };
}
