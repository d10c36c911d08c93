import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compatPython, pythonRequired, requirePython, runPython } from '../helpers/compat-python';
import { startCrawlSite } from '../helpers/crawl-site';
import { startLargePagesSite } from '../helpers/large-pages-site';
import { startTestTabhive } from '../helpers/start-test-tabhive';

/**
 * The official firecrawl-py package (v2 client and V1FirecrawlApp) against a whole Tabhive: the
 * pytest suite in test/compat/python, run with the venv's Python. Skipped only where there is no
 * such venv and REQUIRE_PYTHON_SDK is not 1; CI sets it.
 */

const SUITE = fileURLToPath(new URL('./python', import.meta.url));

describe.skipIf(compatPython() === undefined && !pythonRequired)(
  'the firecrawl-py SDK against Tabhive',
  () => {
    let site: Awaited<ReturnType<typeof startCrawlSite>>;
    let largePages: Awaited<ReturnType<typeof startLargePagesSite>>;
    let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;

    beforeAll(async () => {
      site = await startCrawlSite();
      largePages = await startLargePagesSite();
      tabhive = await startTestTabhive({ browsers: 2 });
    });
    afterAll(async () => {
      await tabhive?.stop();
      await site?.close();
      await largePages?.close();
    });

    it('passes the pytest suite for the v2 and v1 clients', { timeout: 300_000 }, async () => {
      const python = requirePython();
      const { code, output } = await runPython(
        python,
        [
          '-m',
          'pytest',
          SUITE,
          '-p',
          'no:cacheprovider',
          '-q',
          '-rA',
          '--durations=5',
          '-W',
          'ignore::DeprecationWarning',
        ],
        {
          TABHIVE_URL: tabhive.url,
          TABHIVE_API_KEY: tabhive.apiKey,
          CRAWL_SITE_URL: site.url(''),
          LARGE_PAGES_SITE_URL: largePages.url(''),
        },
      );
      expect(code, output).toBe(0);
    });
  },
);
