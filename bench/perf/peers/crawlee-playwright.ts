import { Configuration, PlaywrightCrawler } from 'crawlee';
import { chromium } from 'playwright-core';
import { chromiumArgs, createTally, peerSettings } from './peer-result';

/** Crawlee's PlaywrightCrawler with its defaults, at the same concurrency and on the same Chromium. */
const { startUrl, scope, concurrency, chromePath } = peerSettings();
const tally = createTally();
const crawler = new PlaywrightCrawler(
  {
    launchContext: {
      launcher: chromium,
      launchOptions: { executablePath: chromePath, headless: true, args: chromiumArgs() },
    },
    minConcurrency: concurrency,
    maxConcurrency: concurrency,
    maxRequestRetries: 0,
    async requestHandler({ page, request, enqueueLinks }) {
      tally.page(request.url, await page.content());
      await enqueueLinks({ globs: [`${scope}**`] });
    },
  },
  new Configuration({ persistStorage: false, purgeOnStart: true, logLevel: 1 }),
);
await crawler.run([startUrl]);
tally.report();
