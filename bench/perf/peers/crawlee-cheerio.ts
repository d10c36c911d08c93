import { CheerioCrawler, Configuration } from 'crawlee';
import { createTally, peerSettings } from './peer-result';

/** Crawlee's CheerioCrawler (HTTP + cheerio, no browser), at a fixed concurrency from the start. */
const { startUrl, scope, concurrency } = peerSettings();
const tally = createTally();
const crawler = new CheerioCrawler(
  {
    minConcurrency: concurrency,
    maxConcurrency: concurrency,
    maxRequestRetries: 0,
    async requestHandler({ request, body, enqueueLinks }) {
      tally.page(request.url, body.toString());
      await enqueueLinks({ globs: [`${scope}**`] });
    },
  },
  new Configuration({ persistStorage: false, purgeOnStart: true, logLevel: 1 }),
);
await crawler.run([startUrl]);
tally.report();
