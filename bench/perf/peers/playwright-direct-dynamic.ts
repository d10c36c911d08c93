import { chromium, type Page } from 'playwright-core';
import { FEED_SCROLLS } from '../dynamic-pages';
import { measureDynamic } from '../dynamic-measure';
import { chromiumArgs, createMarkdown, dynamicPeerSettings } from './peer-result';

/**
 * Playwright on the late and feed pages, as its crawl row drives it: one reused page per worker,
 * `goto` until `load`, `page.content()`. On a feed, FEED_SCROLLS `scrollBy` steps of one viewport
 * each, one straight after the other, as a tight loop in a scraper would (each call returns once
 * the renderer has acknowledged the event). Each worker has its own context: with the pages of
 * one context (one renderer process for the site), wheel events took up to a second each to be
 * acknowledged, and four feeds took 35 s instead of 3.4.
 */
const { lateUrls, feedUrls, concurrency, chromePath } = dynamicPeerSettings();
const browser = await chromium.launch({ executablePath: chromePath, headless: true, args: chromiumArgs() });
const pages: Page[] = await Promise.all(
  Array.from({ length: concurrency }, async () =>
    (await browser.newContext({ viewport: { width: 1920, height: 1080 } })).newPage(),
  ),
);
const toMarkdown = createMarkdown();
const pageOf = (worker: number) => pages[worker] as Page;

const result = await measureDynamic({
  lateUrls,
  feedUrls,
  concurrency,
  async late(url, worker) {
    const page = pageOf(worker);
    await page.goto(url, { waitUntil: 'load' });
    return toMarkdown(await page.content());
  },
  async feed(url, worker) {
    const page = pageOf(worker);
    await page.goto(url, { waitUntil: 'load' });
    // A tight scrollBy loop, as a scraper would write it: each call returns as soon as the page has
    // scrolled, before its scroll handler has run (mouse.wheel waits for the renderer to handle
    // the wheel event, scroll handlers included, and hides what a scraper's loop misses).
    for (let step = 0; step < FEED_SCROLLS; step += 1) {
      await page.evaluate(() => window.scrollBy(0, window.innerHeight));
    }
    return toMarkdown(await page.content());
  },
});
console.log(JSON.stringify(result));
await browser.close();
