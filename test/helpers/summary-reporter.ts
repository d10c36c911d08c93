import type { Reporter, SerializedError, TestModule } from 'vitest/node';

/**
 * Prints one plain closing line, `N passed, N failed, N skipped`, after Vitest's own summary, so
 * that CI logs end with a count any reader (or tool) can take in at a glance. A test file that
 * failed before any of its tests ran, and an unhandled error, each count as one failure: the line
 * must never say "0 failed" for a run that failed.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError>,
  ): void {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    for (const module of testModules) {
      let failedHere = 0;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failedHere += 1;
        else skipped += 1;
      }
      if (failedHere === 0 && module.state() === 'failed') failedHere = 1;
      failed += failedHere;
    }
    const line = `${passed} passed, ${failed} failed` + (skipped > 0 ? `, ${skipped} skipped` : '');
    process.stdout.write(`\n${line}\n`);
  }
}
