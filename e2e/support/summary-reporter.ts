import path from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';

/**
 * Ends a run with the plain closing line CI reads, like the Vitest one: "e2e: N passed, N failed, N skipped in Ns",
 * and where a failure's trace, screenshots, HTML and server log are.
 */
export default class SummaryReporter implements Reporter {
  private readonly outcomes = new Map<TestCase, TestResult['status']>();
  private outputDir = '';

  onBegin(config: FullConfig, _suite: Suite): void {
    this.outputDir = config.projects[0]?.outputDir ?? '';
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    this.outcomes.set(test, result.status);
  }

  onEnd(result: FullResult): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const status of this.outcomes.values()) {
      if (status === 'passed') passed++;
      else if (status === 'skipped') skipped++;
      else failed++;
    }
    const seconds = Math.round(result.duration / 1000);
    console.log(`\ne2e: ${passed} passed, ${failed} failed, ${skipped} skipped in ${seconds} s (${result.status})`);
    if (failed || result.status !== 'passed') {
      console.log(
        `e2e artifacts (trace, screenshots, HTML, server log): ${path.relative(process.cwd(), this.outputDir)}`,
      );
    }
  }
}
