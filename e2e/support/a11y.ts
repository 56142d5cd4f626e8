import assert from 'node:assert/strict';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/**
 * axe-core on the page as it is now, frames included (the signing and gateway frames are part of the screen the user
 * sees). Fails on any serious or critical violation, listing each rule and the offending elements.
 */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  // Judge the screen as it settles, not mid-fade (a fading modal blends its colours and fails contrast).
  await page.evaluate(() =>
    Promise.race([
      Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))),
      new Promise((r) => setTimeout(r, 3000)),
    ]),
  );
  const started = Date.now();
  const results = await new AxeBuilder({ page }).analyze();
  if (process.env.E2E_TIMING) console.log(`axe ${screen}: ${Date.now() - started} ms`);
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.equal(
    bad.length,
    0,
    `axe found ${bad.length} serious/critical violation(s) on ${screen} (${page.url()}):\n` +
      bad
        .map(
          (v) =>
            `- [${v.impact}] ${v.id}: ${v.help}\n` +
            v.nodes
              .slice(0, 5)
              .map((n) => `    ${n.target.join(' ')} — ${n.failureSummary?.replace(/\n/g, ' ')}`)
              .join('\n'),
        )
        .join('\n'),
  );
}
