import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints one plain closing line, `N passed, N failed, N skipped`, after Vitest's own summary,
 * so that CI logs end with a count any reader (or tool) can take in at a glance.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failed += 1;
        else skipped += 1;
      }
    }
    const line = `${passed} passed, ${failed} failed` + (skipped > 0 ? `, ${skipped} skipped` : '');
    process.stdout.write(`\n${line}\n`);
  }
}
