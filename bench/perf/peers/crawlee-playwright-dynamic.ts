import { Configuration, PlaywrightCrawler, type PlaywrightCrawlingContext } from 'crawlee';
import { chromium } from 'playwright-core';
import { FEED_SCROLLS } from '../dynamic-pages';
import { createDynamicTally } from '../dynamic-measure';
import { chromiumArgs, createMarkdown, dynamicPeerSettings } from './peer-result';

/**
 * Crawlee's PlaywrightCrawler with its defaults on the late pages, then on the feed pages with
 * FEED_SCROLLS `scrollBy` steps of one viewport each in the request handler, one straight after the
 * other. One crawler per kind of page, each timed with its browser's launch, as its crawl row is.
 */
const { lateUrls, feedUrls, concurrency, chromePath } = dynamicPeerSettings();
const tally = createDynamicTally();
const toMarkdown = createMarkdown();

async function crawl(
  urls: string[],
  handle: (context: PlaywrightCrawlingContext) => Promise<string>,
  count: (url: string, markdown: string | undefined) => void,
): Promise<number> {
  const started = performance.now();
  const crawler = new PlaywrightCrawler(
    {
      launchContext: {
        launcher: chromium,
        launchOptions: { executablePath: chromePath, headless: true, args: chromiumArgs() },
      },
      minConcurrency: concurrency,
      maxConcurrency: concurrency,
      maxRequestRetries: 0,
      async requestHandler(context) {
        count(context.request.url, await handle(context));
      },
      failedRequestHandler({ request }) {
        count(request.url, undefined);
      },
    },
    new Configuration({ persistStorage: false, purgeOnStart: true, logLevel: 1 }),
  );
  await crawler.run(urls);
  return (performance.now() - started) / 1000;
}

tally.result.lateSeconds = await crawl(
  lateUrls,
  async ({ page }) => toMarkdown(await page.content()),
  tally.late,
);
tally.result.feedSeconds = await crawl(
  feedUrls,
  async ({ page }) => {
    // A tight scrollBy loop, as a scraper would write it: each call returns as soon as the page has
    // scrolled, before its scroll handler has run (mouse.wheel waits for the renderer to handle
    // the wheel event, scroll handlers included, and hides what a scraper's loop misses).
    for (let step = 0; step < FEED_SCROLLS; step += 1) {
      await page.evaluate(() => window.scrollBy(0, window.innerHeight));
    }
    return toMarkdown(await page.content());
  },
  tally.feed,
);
console.log(JSON.stringify(tally.result));
