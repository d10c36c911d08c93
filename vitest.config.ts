import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          // Real servers (FerretDB) are started and stopped by the tests themselves.
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'e2e',
          // test/compat: the official Firecrawl SDKs (JS and Python) and the API fuzzer against a whole Tabhive.
          include: ['test/e2e/**/*.test.ts', 'test/compat/**/*.test.ts'],
          // Real Chromium processes: one file at a time keeps two cores from thrashing.
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
