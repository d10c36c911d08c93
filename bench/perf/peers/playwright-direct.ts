import { chromium } from 'playwright-core';
import { chromiumArgs, createTally, peerSettings } from './peer-result';

/**
 * Playwright driving the same Chromium directly: one page per worker, reused (the fastest way
 * measured in BENCHMARKS.md#measured-facts), `load` as the navigation's end, links read from the DOM.
 */
const { startUrl, scope, concurrency, chromePath } = peerSettings();
const browser = await chromium.launch({ executablePath: chromePath, headless: true, args: chromiumArgs() });
const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
const tally = createTally();
const seen = new Set([startUrl]);
const queue = [startUrl];
let active = 0;

await new Promise<void>((resolve, reject) => {
  const worker = async () => {
    const page = await context.newPage();
    try {
      for (;;) {
        const url = queue.shift();
        if (url === undefined) {
          if (active === 0) return;
          await new Promise((r) => setTimeout(r, 5));
          continue;
        }
        active += 1;
        try {
          await page.goto(url, { waitUntil: 'load' });
          const html = await page.content();
          const links = await page.$$eval('a[href]', (anchors) =>
            anchors.map((a) => (a as HTMLAnchorElement).href),
          );
          tally.page(url, html);
          for (const link of links) {
            const clean = link.split('#')[0] as string;
            if (clean.startsWith(scope) && !seen.has(clean)) {
              seen.add(clean);
              queue.push(clean);
            }
          }
        } finally {
          active -= 1;
        }
      }
    } finally {
      await page.close();
    }
  };
  Promise.all(Array.from({ length: concurrency }, worker)).then(() => resolve(), reject);
});
tally.report();
await browser.close();
