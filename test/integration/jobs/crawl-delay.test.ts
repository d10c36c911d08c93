import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Egress } from '../../../server/platform/egress/create-egress';
import { createJobRunner, type JobRunner } from '../../../server/products/jobs/create-job-runner';
import { createJobService, type JobService } from '../../../server/products/jobs/create-job-service';
import { crawlSpecFromV2 } from '../../../server/products/jobs/job-spec';
import { silentLog } from '../../../server/platform/log/log';
import type { Scraper } from '../../../server/scrape/types/scraper';
import type { Stores } from '../../../server/platform/store/create-stores';
import { MAX_CRAWL_DELAY_S } from '../../../shared/api/crawl-delay';
import { CrawlRequestV2 } from '../../../shared/api/v2/crawl-request';
import { DATABASE_BACKENDS, freshStores } from '../../helpers/database-backends';
import { waitUntil } from '../../helpers/start-test-tabhive';

/** A site whose robots.txt asks for `crawlDelay` seconds between requests. */
function robotsEgress(crawlDelay: string): Egress {
  return {
    get: async (url) => {
      if (!url.endsWith('/robots.txt')) throw new Error('offline');
      const body = `User-agent: *\nCrawl-delay: ${crawlDelay}\n`;
      return { status: 200, headers: {}, body, bytes: Buffer.from(body), url };
    },
    post: () => Promise.reject(new Error('offline')),
    close: async () => undefined,
  };
}

/** Every page links to one more page, so that a crawl always has a next page to hold back. */
const linkingScraper: Scraper = {
  async scrape(request, { scrapeId, onCapture }) {
    const url = request.url.url;
    const next = `${url.replace(/\/$/, '')}/next`;
    const rawHtml = `<html><body><a href="${next}">next</a></body></html>`;
    onCapture?.({ url, statusCode: 200, rawHtml, renderedHtml: rawHtml }, [next]);
    return {
      markdown: `# ${url}`,
      metadata: {
        sourceURL: url,
        url,
        statusCode: 200,
        scrapeId: scrapeId ?? 'none',
        creditsUsed: 1,
        proxyUsed: 'basic',
      },
    };
  },
};

describe.each(DATABASE_BACKENDS)('$kind database: crawl delays', (backend) => {
  describe.skipIf(!backend.available)(backend.kind, () => {
    const harness = backend.use();
    let stores: Stores;
    let jobs: JobService;
    let runner: JobRunner | undefined;

    beforeEach(async () => {
      stores = await freshStores(harness);
      jobs = createJobService({ stores });
    });
    afterEach(async () => {
      await runner?.stop();
      runner = undefined;
    });

    /** How far in the future each held-back page was put, in ms (NaN for an Invalid Date). */
    let heldBackMs: number[] = [];
    const start = (egress: Egress) => {
      heldBackMs = [];
      const fail = stores.pageTasks.fail;
      stores.pageTasks.fail = (id, token, error, options) => {
        if (options?.retryAt !== undefined) heldBackMs.push(options.retryAt.getTime() - Date.now());
        return fail(id, token, error, options);
      };
      runner = createJobRunner({
        stores,
        scraper: linkingScraper,
        egress,
        log: silentLog,
        capacity: () => 4,
      });
      runner.start();
    };
    /** The next page waits the bounded delay: a real date, at most an hour from now. */
    const nextPageHeldBackAnHourAtMost = async () => {
      await waitUntil(() => heldBackMs.length > 0, 15_000, 'the next page to be held back');
      for (const ms of heldBackMs) {
        expect(ms).toBeGreaterThan(0);
        expect(ms).toBeLessThanOrEqual(MAX_CRAWL_DELAY_S * 1000);
      }
    };
    const firstPageDone = (id: string) =>
      waitUntil(
        async () => ((await jobs.status('team', id, { skip: 0 })) as { completed?: number }).completed === 1,
        15_000,
        'the first page of the crawl',
      );

    it('starts a crawl stored with a delay no date can hold (from before the API bounded it)', async () => {
      start(robotsEgress('1'));
      const request = CrawlRequestV2.parse({
        url: 'https://d.test/',
        sitemap: 'skip',
        ignoreRobotsTxt: true,
      });
      const id = await jobs.startCrawl('team', { ...crawlSpecFromV2(request), delay: 1e300 });
      await firstPageDone(id);
      await nextPageHeldBackAnHourAtMost();
    });

    it('starts a crawl whose robots.txt asks for an endless Crawl-delay', async () => {
      start(robotsEgress('1e300'));
      const request = CrawlRequestV2.parse({ url: 'https://r.test/', sitemap: 'skip' });
      const id = await jobs.startCrawl('team', crawlSpecFromV2(request));
      await firstPageDone(id);
      await nextPageHeldBackAnHourAtMost();
    });
  });
});
