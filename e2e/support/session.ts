import fs from 'node:fs';
import path from 'node:path';
import type { TestContext } from 'node:test';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { ROOT, type RunningProduct } from './server.js';

export const PHONE = { width: 360, height: 640 } as const;
export const DESKTOP = { width: 1280, height: 800 } as const;
export const SCREENSHOT_PHONE = { width: 390, height: 844 } as const;

/** Failure artifacts (git-ignored). E2E_ARTIFACTS moves them, e.g. when several people share one checkout. */
export const ARTIFACTS = process.env.E2E_ARTIFACTS
  ? path.resolve(process.env.E2E_ARTIFACTS)
  : path.join(ROOT, 'e2e/.artifacts');

/** A browser context (one "person's browser") with one page and a record of what went wrong in it. */
export interface Session {
  context: BrowserContext;
  page: Page;
  /** Uncaught exceptions in the app's pages. */
  pageErrors: string[];
  /** console.error / warning lines, kept for failure reports. */
  console: string[];
}

export async function openSession(browser: Browser, options: BrowserContextOptions = {}): Promise<Session> {
  const context = await browser.newContext({ viewport: DESKTOP, locale: 'en-US', ...options });
  context.setDefaultTimeout(Number(process.env.E2E_TIMEOUT_MS ?? 20_000));
  const pageErrors: string[] = [];
  const consoleLines: string[] = [];
  const watch = (p: Page) => {
    p.on('pageerror', (e) => pageErrors.push(`${p.url()}: ${e.message}`));
    p.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') consoleLines.push(`[${m.type()}] ${p.url()}: ${m.text()}`);
    });
  };
  context.on('page', watch);
  const page = await context.newPage();
  return { context, page, pageErrors, console: consoleLines };
}

function safeName(s: string): string {
  return s
    .replace(/[^a-z0-9]+/gi, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 90);
}

/**
 * Saves what a person debugging a failure needs: a full-page screenshot and the HTML of every open page, the
 * browser console and the server's output, under e2e/.artifacts/<file>/<test>-*.
 */
export async function saveArtifacts(
  name: string,
  session: Session | undefined,
  product?: RunningProduct,
  error?: unknown,
): Promise<string> {
  const file = safeName(path.basename(process.argv[1] ?? 'e2e').replace(/\.test\.ts$/, ''));
  const dir = path.join(ARTIFACTS, file);
  fs.mkdirSync(dir, { recursive: true });
  const base = path.join(dir, safeName(name));
  const notes: string[] = [`test: ${name}`, `error: ${error instanceof Error ? error.stack : String(error)}`];
  if (session) {
    const pages = session.context.pages();
    for (const [i, p] of pages.entries()) {
      const suffix = pages.length > 1 ? `-${i + 1}` : '';
      notes.push(`page${suffix}: ${p.url()}`);
      await p.screenshot({ path: `${base}${suffix}.png`, fullPage: true, timeout: 5000 }).catch(() => undefined);
      const html = await p.content().catch(() => '');
      if (html) fs.writeFileSync(`${base}${suffix}.html`, html);
    }
    notes.push('', 'page errors:', ...session.pageErrors, '', 'console:', ...session.console);
  }
  if (product) notes.push('', 'server output (last 20 kB):', product.output().slice(-20_000));
  fs.writeFileSync(`${base}.log`, notes.join('\n'));
  return base;
}

/**
 * Runs one journey in a fresh browser context: on failure saves artifacts, always closes the context, and fails
 * when the app threw an uncaught exception even if every assertion passed.
 */
export async function inSession(
  t: TestContext,
  browser: Browser,
  product: RunningProduct,
  options: BrowserContextOptions,
  journey: (s: Session) => Promise<void>,
): Promise<void> {
  const session = await openSession(browser, options);
  try {
    await journey(session);
    if (session.pageErrors.length) {
      throw new Error(`The app threw uncaught exceptions:\n${session.pageErrors.join('\n')}`);
    }
  } catch (err) {
    const where = await saveArtifacts(t.name, session, product, err);
    if (err instanceof Error) err.message += `\n(artifacts: ${path.relative(ROOT, where)}.*)`;
    throw err;
  } finally {
    await session.context.close().catch(() => undefined);
  }
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
