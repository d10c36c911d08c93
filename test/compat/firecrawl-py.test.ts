import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compatPython, pythonRequired, requirePython, runPython } from '../helpers/compat-python';
import { startCrawlSite } from '../helpers/crawl-site';
import { startLargePagesSite } from '../helpers/large-pages-site';
import { startScannedPdfSite } from '../helpers/scanned-pdf-site';
import { startScriptedLlmServer } from '../helpers/scripted-llm-server';
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
    let scannedPdfs: Awaited<ReturnType<typeof startScannedPdfSite>>;
    let tabhive: Awaited<ReturnType<typeof startTestTabhive>>;
    // A second Tabhive with a scripted model for the agent tests: giving the first one a model
    // would change what the extract, llms.txt and json-format tests expect.
    let llm: Awaited<ReturnType<typeof startScriptedLlmServer>>;
    let agentTabhive: Awaited<ReturnType<typeof startTestTabhive>>;

    beforeAll(async () => {
      site = await startCrawlSite();
      largePages = await startLargePagesSite();
      scannedPdfs = await startScannedPdfSite();
      tabhive = await startTestTabhive({ browsers: 2 });
      llm = await startScriptedLlmServer();
      agentTabhive = await startTestTabhive({ browsers: 1, env: { LLM_BASE_URL: llm.baseUrl } });
    });
    afterAll(async () => {
      await tabhive?.stop();
      await agentTabhive?.stop();
      await llm?.close();
      await site?.close();
      await largePages?.close();
      await scannedPdfs?.close();
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
          SCANNED_PDF_SITE_URL: scannedPdfs.url(''),
          AGENT_TABHIVE_URL: agentTabhive.url,
          SCRIPTED_LLM_URL: llm.controlUrl,
        },
      );
      expect(code, output).toBe(0);
    });
  },
);
