import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Where a test writes a screenshot the README shows. Every run takes it (so a page that cannot be
 * drawn fails the test), but only `UPDATE_SCREENSHOTS=1` writes it into docs/screenshots: ports and
 * font rendering differ between runs, and an ordinary test run must leave the work tree clean.
 */
export function readmeScreenshot(name: string): string {
  return process.env.UPDATE_SCREENSHOTS === '1'
    ? join('docs', 'screenshots', name)
    : join(tmpdir(), 'tabhive-screenshots', name);
}
