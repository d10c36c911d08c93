import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TabhiveError } from '../../../server/platform/errors/tabhive-error';
import type { Log } from '../../../server/platform/log/log';
import type { Stores } from '../../../server/platform/store/create-stores';
import { createJobRunner, type JobRunner } from '../../../server/products/jobs/create-job-runner';
import { createJobService, type JobService } from '../../../server/products/jobs/create-job-service';
import type { Scraper } from '../../../server/scrape/types/scraper';
import { BATCH, noEgress } from '../../helpers/offline-job-fixtures';
import { DATABASE_BACKENDS, freshStores } from '../../helpers/database-backends';
import { recordingLog } from '../../helpers/recording-log';
import { waitUntil } from '../../helpers/start-test-tabhive';

/** A log that keeps its lines, and the `job resumed` ones among them. */
function logOfResumes() {
  const { log, lines } = recordingLog();
  return {
    log,
    resumed: () =>
      lines
        .filter((line) => line.message === 'job resumed')
        .map(({ message, fields }) => ({ message, fields })),
  };
}

/** Scrapes the first `pages` pages at once; every later one waits until `release()`, then fails. */
function scraperThatStopsAfter(pages: number) {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let calls = 0;
  const scraper: Scraper = {
    async scrape(request, { scrapeId }) {
      calls += 1;
      if (calls > pages) {
        await released;
        throw new TabhiveError('unavailable', 'stopped', { code: 'NO_BROWSER_AVAILABLE' });
      }
      const url = request.url.url;
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
  return { scraper, release };
}

describe.each(DATABASE_BACKENDS)('$kind database: jobs resumed after a restart', (backend) => {
  describe.skipIf(!backend.available)(backend.kind, () => {
    const harness = backend.use();
    let stores: Stores;
    let jobs: JobService;
    const runners: JobRunner[] = [];
    const releases: Array<() => void> = [];

    beforeEach(async () => {
      stores = await freshStores(harness);
      jobs = createJobService({ stores });
    });
    afterEach(async () => {
      for (const runner of runners.splice(0)) await runner.stop();
      for (const release of releases.splice(0)) release();
    });

    const runner = (scraper: Scraper, log: Log, capacity: number) => {
      const started = createJobRunner({ stores, scraper, egress: noEgress, log, capacity: () => capacity });
      runners.push(started);
      started.start();
      return started;
    };

    it('logs one line per job the new runner takes up, with its pages done and left', async () => {
      // The first process runs one page of three, and stops with the second in flight.
      const first = scraperThatStopsAfter(1);
      releases.push(first.release);
      const before = logOfResumes();
      const previous = runner(first.scraper, before.log, 1);
      const id = await jobs.startBatch('team', BATCH, [
        'https://a.test/1',
        'https://a.test/2',
        'https://a.test/3',
      ]);
      await waitUntil(async () => (await stores.jobs.get(id))?.completed === 1, 10_000, 'the first page');
      await previous.stop();
      expect(before.resumed()).toEqual([]);

      // The next process takes the job up: one line, whatever the number of its pages.
      await new Promise((resolve) => setTimeout(resolve, 5));
      const after = logOfResumes();
      runner(scraperThatStopsAfter(Infinity).scraper, after.log, 4);
      await waitUntil(async () => (await stores.jobs.get(id))?.status === 'completed', 10_000, 'the job');
      expect(after.resumed()).toEqual([
        {
          message: 'job resumed',
          fields: expect.objectContaining({ jobId: id, kind: 'batch', pagesDone: 1, pagesLeft: 2 }),
        },
      ]);

      // A job begun after the start is no resumed one.
      const fresh = await jobs.startBatch('team', BATCH, ['https://b.test/1']);
      await waitUntil(
        async () => (await stores.jobs.get(fresh))?.status === 'completed',
        10_000,
        'the new job',
      );
      expect(after.resumed()).toHaveLength(1);
    });
  });
});
