import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TabhiveError } from '../../../server/platform/errors/tabhive-error';
import { createJobRunner, type JobRunner } from '../../../server/products/jobs/create-job-runner';
import { createJobService, type JobService } from '../../../server/products/jobs/create-job-service';
import { crawlSpecFromV2, type JobSpec } from '../../../server/products/jobs/job-spec';
import type { Log } from '../../../server/platform/log/log';
import type { Scraper } from '../../../server/scrape/types/scraper';
import type { ScrapeDocument } from '../../../server/scrape/types/scrape-document';
import type { Stores } from '../../../server/platform/store/create-stores';
import { CrawlRequestV2 } from '../../../shared/api/v2/crawl-request';
import { ScrapeOptionsV2 } from '../../../shared/api/v2/scrape-options';
import { BATCH, noEgress } from '../../helpers/offline-job-fixtures';
import { DATABASE_BACKENDS, freshStores } from '../../helpers/database-backends';
import { waitUntil } from '../../helpers/start-test-tabhive';

const silent: Log = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
} as unknown as Log;

/** The document a fake scraper returns for a page: its URL as Markdown, one credit. */
const pageDocument = (url: string, scrapeId: string | undefined): ScrapeDocument => ({
  markdown: `# ${url}`,
  metadata: {
    sourceURL: url,
    url,
    statusCode: 200,
    scrapeId: scrapeId ?? 'none',
    creditsUsed: 1,
    proxyUsed: 'basic',
  },
});

/** A scraper that answers from a table: a document, or an error to throw. */
function fakeScraper(outcomes: (url: string, run: number) => Error | undefined) {
  const runs = new Map<string, number>();
  const scraper: Scraper = {
    async scrape(request, { scrapeId }) {
      const url = request.url.url;
      const run = (runs.get(url) ?? 0) + 1;
      runs.set(url, run);
      await new Promise((resolve) => setTimeout(resolve, 5));
      const error = outcomes(url, run);
      if (error !== undefined) throw error;
      return pageDocument(url, scrapeId);
    },
  };
  return { scraper, runs };
}

describe.each(DATABASE_BACKENDS)('$kind database: the job runner', (backend) => {
  describe.skipIf(!backend.available)(backend.kind, () => {
    const harness = backend.use();
    let stores: Stores;
    let jobs: JobService;
    const runners: JobRunner[] = [];

    beforeEach(async () => {
      stores = await freshStores(harness);
      jobs = createJobService({ stores });
    });
    afterEach(async () => {
      for (const runner of runners.splice(0)) await runner.stop();
    });

    const run = (scraper: Scraper, capacity = 4) => {
      const runner = createJobRunner({
        stores,
        scraper,
        egress: noEgress,
        log: silent,
        capacity: () => capacity,
      });
      runners.push(runner);
      runner.start();
      return runner;
    };
    const finished = (id: string) =>
      waitUntil(async () => (await stores.jobs.get(id))?.status === 'completed', 15_000, 'the job');

    it('runs a batch to completion, one document and one charge per page', async () => {
      const { scraper } = fakeScraper(() => undefined);
      run(scraper);
      const urls = Array.from({ length: 8 }, (_, i) => `https://s.test/${i}`);
      const id = await jobs.startBatch('team', BATCH, urls);
      await finished(id);
      const status = await jobs.status('team', id, { skip: 0 });
      expect(status).toMatchObject({ status: 'completed', total: 8, completed: 8, creditsUsed: 8 });
      expect((await stores.creditLedger.entriesForTeam('team')).length).toBe(8);
    });

    it('reserves each page’s credits before it runs: pages past a spent allowance fail, retried pages are charged once', async () => {
      // The first run of every page fails for a reason worth retrying; the second succeeds.
      const { scraper } = fakeScraper((_url, attempt) =>
        attempt === 1
          ? new TabhiveError('unavailable', 'No browser', { code: 'NO_BROWSER_AVAILABLE' })
          : undefined,
      );
      await stores.teams.create({ id: 'thrifty', creditAllowance: 10 });
      const urls = Array.from({ length: 10 }, (_, i) => `https://t.test/${i}`);
      const id = await jobs.startBatch('thrifty', BATCH, urls);
      // The allowance shrinks after the job started: only 6 pages can still be paid for.
      await stores.teams.configure('thrifty', { creditAllowance: 6 });
      // One page at a time: a page that is about to fail holds no credits another page needs.
      run(scraper, 1);
      await finished(id);
      const status = await jobs.status('thrifty', id, { skip: 0 });
      expect(status).toMatchObject({ completed: 6, creditsUsed: 6 });
      expect(await stores.teams.get('thrifty')).toMatchObject({ creditsUsed: 6, creditsLeft: 0 });
      const entries = await stores.creditLedger.entriesForTeam('thrifty');
      expect(entries).toHaveLength(6);
      expect(entries.every((entry) => entry.state === 'charged' && entry.credits === 1)).toBe(true);
      const errors = await jobs.errors('thrifty', id);
      expect(errors.found && errors.errors.map((error) => error.error)).toEqual(
        Array.from({ length: 4 }, () => expect.stringMatching(/^Insufficient credits/)),
      );
    });

    it('fails a page at once for its own error, and after three runs for the browser going away', async () => {
      const { scraper, runs } = fakeScraper((url) =>
        url.endsWith('/dns')
          ? new TabhiveError('failed', 'DNS resolution failed', { code: 'SCRAPE_DNS_RESOLUTION_ERROR' })
          : url.endsWith('/gone')
            ? new TabhiveError('failed', 'All scraping engines failed! -- browser closed', {
                code: 'SCRAPE_ALL_ENGINES_FAILED',
              })
            : undefined,
      );
      run(scraper);
      const id = await jobs.startBatch('team', BATCH, [
        'https://s.test/ok',
        'https://s.test/dns',
        'https://s.test/gone',
      ]);
      await finished(id);
      expect(runs.get('https://s.test/dns')).toBe(1);
      expect(runs.get('https://s.test/gone')).toBe(3);
      const result = await jobs.errors('team', id);
      expect(result.found && !result.forbidden && result.errors.map((error) => error.code).sort()).toEqual([
        'SCRAPE_ALL_ENGINES_FAILED',
        'SCRAPE_DNS_RESOLUTION_ERROR',
      ]);
      expect(await jobs.status('team', id, { skip: 0 })).toMatchObject({
        total: 1,
        completed: 1,
        creditsUsed: 1,
      });
    });

    it('shares one job between two runners without running a page beyond its job limit', async () => {
      const { scraper, runs } = fakeScraper(() => undefined);
      const one = run(scraper, 3);
      const two = run(scraper, 3);
      let peak = 0;
      const sample = setInterval(() => {
        peak = Math.max(peak, one.inFlight() + two.inFlight());
      }, 1);
      const urls = Array.from({ length: 20 }, (_, i) => `https://s.test/p${i}`);
      const id = await jobs.startBatch('team', { ...BATCH, maxConcurrency: 2 }, urls);
      await finished(id);
      clearInterval(sample);
      expect(peak).toBeLessThanOrEqual(2);
      expect([...runs.values()].every((count) => count === 1)).toBe(true);
      expect(await jobs.status('team', id, { skip: 0, limit: 100 })).toMatchObject({
        completed: 20,
        creditsUsed: 20,
      });
    });

    it("holds the team's concurrency limit across two runners and two jobs", async () => {
      const { scraper, runs } = fakeScraper(() => undefined);
      await stores.teams.ensure({ id: 'team', name: 'Team' });
      await stores.teams.configure('team', { maxConcurrency: 2 });
      const one = run(scraper, 3);
      const two = run(scraper, 3);
      let peak = 0;
      const sample = setInterval(() => {
        peak = Math.max(peak, one.inFlight() + two.inFlight());
      }, 1);
      const first = await jobs.startBatch(
        'team',
        BATCH,
        Array.from({ length: 10 }, (_, i) => `https://s.test/a${i}`),
      );
      const second = await jobs.startBatch(
        'team',
        BATCH,
        Array.from({ length: 10 }, (_, i) => `https://s.test/b${i}`),
      );
      await finished(first);
      await finished(second);
      clearInterval(sample);
      expect(peak).toBeLessThanOrEqual(2);
      expect(runs.size).toBe(20);
    });

    it("puts a page held back by its own runner's share at the back of the queue, not into the future", async () => {
      let release: () => void = () => {};
      const gate = new Promise<void>((resolve) => (release = resolve));
      let started = 0;
      const scraper: Scraper = {
        async scrape(request, { scrapeId }) {
          started += 1;
          await gate;
          return pageDocument(request.url.url, scrapeId);
        },
      };
      await stores.teams.ensure({ id: 'team', name: 'Team' });
      await stores.teams.configure('team', { maxConcurrency: 2 });
      const fail = stores.pageTasks.fail;
      const heldBack: number[] = [];
      const heldBackIds = new Set<string>();
      stores.pageTasks.fail = (id, token, error, options) => {
        if (options?.retryAt !== undefined) heldBack.push(options.retryAt.getTime() - Date.now());
        if (options?.retryAt !== undefined) heldBackIds.add(id);
        return fail(id, token, error, options);
      };
      const runner = run(scraper, 3);
      const id = await jobs.startBatch('team', BATCH, [
        'https://q.test/1',
        'https://q.test/2',
        'https://q.test/3',
      ]);
      await waitUntil(async () => heldBack.length >= 2, 5_000, 'pages held back');
      // The team's share is one page: the others wait for it, available again at once.
      expect(started).toBe(1);
      expect(runner.inFlight()).toBe(1);
      expect(heldBack.every((delay) => delay <= 0)).toBe(true);
      release();
      await finished(id);
      expect(started).toBe(3);
      // Waiting for a free slot is no attempt: each page ran once, and says so.
      for (const taskId of heldBackIds) expect((await stores.pageTasks.get(taskId))?.attempts).toBe(1);
    });

    it('runs more pages than its browser capacity only for jobs the HTTP fast path may serve', async () => {
      const scraper: Scraper = {
        async scrape(request, { scrapeId }) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          return pageDocument(request.url.url, scrapeId);
        },
      };
      const runner = createJobRunner({
        stores,
        scraper,
        egress: noEgress,
        log: silent,
        capacity: () => 1,
        // Here a header of its own marks a job whose pages all need a browser.
        httpPages: { extra: 3, eligible: (spec) => spec.scrapeOptions.headers === undefined },
      });
      runners.push(runner);
      runner.start();
      const peakOf = async (spec: JobSpec, prefix: string) => {
        let peak = 0;
        const sample = setInterval(() => (peak = Math.max(peak, runner.inFlight())), 5);
        const urls = Array.from({ length: 8 }, (_, i) => `https://h.test/${prefix}${i}`);
        await finished(await jobs.startBatch('team', spec, urls));
        clearInterval(sample);
        return peak;
      };
      const browserSpec = { ...BATCH, scrapeOptions: ScrapeOptionsV2.parse({ headers: { 'x-a': 'b' } }) };
      expect(await peakOf(browserSpec, 'browser')).toBe(1);
      const httpPeak = await peakOf(BATCH, 'http');
      expect(httpPeak).toBeGreaterThan(1);
      expect(httpPeak).toBeLessThanOrEqual(4);
    });

    it('gives v1 extract jobs their data under `extract`, as /v1/scrape does', async () => {
      const scraper: Scraper = {
        async scrape(request, { scrapeId }) {
          return {
            json: { price: 3 },
            metadata: {
              sourceURL: request.url.url,
              url: request.url.url,
              statusCode: 200,
              scrapeId: scrapeId ?? 'none',
              creditsUsed: 5,
              proxyUsed: 'basic',
            },
          };
        },
      };
      run(scraper);
      const id = await jobs.startBatch('team', { ...BATCH, version: 'v1', jsonKey: 'extract' }, [
        'https://s.test/x',
      ]);
      await finished(id);
      const status = await jobs.status('team', id, { skip: 0 });
      const pages = (status as { data: Array<Record<string, unknown>> }).data;
      expect(pages).toHaveLength(1);
      expect(pages[0]).toMatchObject({ extract: { price: 3 } });
      expect(pages[0]).not.toHaveProperty('json');
    });

    it('asks the store about each link of a crawl once, however many pages show it, and keeps the limit', async () => {
      // Every page links to every page, as navigation menus do.
      const PAGES = 30;
      const urls = Array.from({ length: PAGES }, (_, i) => `https://c.test/${i === 0 ? '' : `p${i}`}`);
      const rawHtml = `<html><body>${urls.map((url) => `<a href="${url}">${url}</a>`).join('')}</body></html>`;
      const scraper: Scraper = {
        async scrape(request, { scrapeId, onCapture }) {
          const url = request.url.url;
          // No links from the scraper: the runner reads them from the raw HTML itself.
          onCapture?.({ url, statusCode: 200, rawHtml, renderedHtml: rawHtml }, undefined);
          return pageDocument(url, scrapeId);
        },
      };
      const { enqueue, enqueueMany } = stores.pageTasks;
      let enqueues = 0;
      stores.pageTasks.enqueue = (task, now) => {
        enqueues += 1;
        return enqueue(task, now);
      };
      // The start page goes in with the job, through the bulk write.
      stores.pageTasks.enqueueMany = (tasks, now) => {
        enqueues += tasks.length;
        return enqueueMany(tasks, now);
      };
      run(scraper);
      const crawl = (limit: number) =>
        crawlSpecFromV2(
          CrawlRequestV2.parse({ url: urls[0], limit, sitemap: 'skip', ignoreRobotsTxt: true }),
        );

      const whole = await jobs.startCrawl('team', crawl(100));
      await finished(whole);
      expect(await jobs.status('team', whole, { skip: 0, limit: 100 })).toMatchObject({
        completed: PAGES,
        total: PAGES,
      });
      // The start page's when the crawl starts, then one per URL found (the start page's own link
      // among them): not one per link shown.
      expect(enqueues).toBe(PAGES + 1);

      const limited = await jobs.startCrawl('team', crawl(12));
      await finished(limited);
      expect(await jobs.status('team', limited, { skip: 0, limit: 100 })).toMatchObject({
        completed: 12,
        total: 12,
      });
    });

    it('follows the links the scraper read where it derived the page, asking for them only for crawls', async () => {
      const asked: Array<boolean | undefined> = [];
      const scraper: Scraper = {
        async scrape(request, { scrapeId, onCapture, pageLinks }) {
          const url = request.url.url;
          asked.push(pageLinks);
          // The raw HTML shows no link: what the crawl finds comes from the links handed over.
          const rawHtml = '<html><body>no anchors here</body></html>';
          const links = url === 'https://l.test/' ? ['https://l.test/a', 'https://l.test/b'] : [];
          onCapture?.({ url, statusCode: 200, rawHtml, renderedHtml: rawHtml }, links);
          return pageDocument(url, scrapeId);
        },
      };
      run(scraper);
      const crawl = await jobs.startCrawl(
        'team',
        crawlSpecFromV2(
          CrawlRequestV2.parse({ url: 'https://l.test/', sitemap: 'skip', ignoreRobotsTxt: true }),
        ),
      );
      await finished(crawl);
      const status = (await jobs.status('team', crawl, { skip: 0, limit: 10 })) as {
        data: Array<{ metadata: { sourceURL: string } }>;
      };
      expect(status.data.map((page) => page.metadata.sourceURL).sort()).toEqual([
        'https://l.test/',
        'https://l.test/a',
        'https://l.test/b',
      ]);
      expect(asked).toEqual([true, true, true]);
      await finished(await jobs.startBatch('team', BATCH, ['https://l.test/batch']));
      expect(asked.at(-1)).toBe(false);
    });

    it('hands back a page it claimed while stopping, instead of running it under a live lease', async () => {
      // The store answers the claim only after stop(): the page must not run on the stopped runner.
      let claimed = () => {};
      const claimArrived = new Promise<void>((resolve) => (claimed = resolve));
      let answer = () => {};
      const answered = new Promise<void>((resolve) => (answer = resolve));
      const pageTasks = stores.pageTasks;
      const slowClaims: Stores = {
        ...stores,
        pageTasks: {
          ...pageTasks,
          claimNext: async (options) => {
            const task = await pageTasks.claimNext(options);
            if (task !== undefined) {
              claimed();
              await answered;
            }
            return task;
          },
        },
      };
      const stopping = fakeScraper(() => undefined);
      const stopped = createJobRunner({
        stores: slowClaims,
        scraper: stopping.scraper,
        egress: noEgress,
        log: silent,
        capacity: () => 1,
      });
      const id = await jobs.startBatch('team', BATCH, ['https://h.test/a']);
      stopped.start();
      await claimArrived;
      await stopped.stop();
      answer();

      // The next runner takes the page now, not when the claim's lease runs out.
      const { scraper, runs } = fakeScraper(() => undefined);
      run(scraper);
      await waitUntil(async () => (await stores.jobs.get(id))?.status === 'completed', 10_000, 'the job');
      expect(stopping.runs.size).toBe(0);
      expect([...runs.keys()]).toEqual(['https://h.test/a']);
    });

    it('stops on cancel: queued pages never run, the job reads cancelled', async () => {
      const { scraper, runs } = fakeScraper(() => undefined);
      const id = await jobs.startBatch('team', BATCH, ['https://s.test/a', 'https://s.test/b']);
      expect(await jobs.cancel('team', id)).toBe('cancelled');
      expect(await jobs.cancel('other-team', id)).toBeUndefined();
      run(scraper);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(runs.size).toBe(0);
      expect(await jobs.status('team', id, { skip: 0 })).toMatchObject({ status: 'cancelled', completed: 0 });
    });
  });
});
