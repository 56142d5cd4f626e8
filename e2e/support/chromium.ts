import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import type { LaunchOptions } from 'playwright-core';

const CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
];

/**
 * Finds a Chromium to drive; installs Debian's with apt-get when running as root; otherwise stops with a message
 * that says what to do. Playwright never downloads a browser here.
 */
export function ensureChromium(): string {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) {
    if (fs.existsSync(configured)) return configured;
    fail(`CHROMIUM_PATH=${configured} does not exist.`);
  }
  const found = CANDIDATES.find((p) => fs.existsSync(p));
  if (found) return found;
  const canApt = process.getuid?.() === 0 && fs.existsSync('/usr/bin/apt-get');
  if (canApt) {
    console.log('Chromium not found: installing it with apt-get (about 30 s)...');
    try {
      execFileSync('apt-get', ['update'], { stdio: 'inherit' });
      execFileSync('apt-get', ['install', '-y', 'chromium'], {
        stdio: 'inherit',
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      });
    } catch {
      fail('apt-get could not install chromium.');
    }
    const after = CANDIDATES.find((p) => fs.existsSync(p));
    if (after) return after;
  }
  fail('No Chromium found.');
}

function fail(why: string): never {
  console.error(
    `\nThe browser suite needs Chromium. ${why}\n` +
      'Install it (Debian/Ubuntu: `sudo apt-get install -y chromium`) or set CHROMIUM_PATH to a Chromium or Chrome binary.\n',
  );
  process.exit(1);
}

/** Launch flags that work on a closed network (../shared/notes/toolchain.md). */
export const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/**
 * How the suite launches Chromium (playwright.config.ts, e2e/support/browser.ts): the system binary (CHROMIUM_PATH,
 * else the first one found; ensureChromium in the global setup installs one first when it can) with CHROMIUM_ARGS.
 * A file that needs more flags passes them here; test.use({ launchOptions }) replaces, not merges, the config's.
 */
export function launchOptions(extraArgs: string[] = []): LaunchOptions {
  return {
    executablePath: process.env.CHROMIUM_PATH ?? CANDIDATES.find((p) => fs.existsSync(p)) ?? CANDIDATES[0],
    args: [...CHROMIUM_ARGS, ...extraArgs],
  };
}
