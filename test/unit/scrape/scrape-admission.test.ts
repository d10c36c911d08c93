import { describe, expect, it } from 'vitest';
import { ScrapeRequestV2 } from '../../../shared/api/v2/scrape-request';
import type { PageCapture } from '../../../shared/protocol/messages';
import type { RunOptions } from '../../../server/browsers/hub/task-scheduler';
import { silentLog } from '../../../server/platform/log/log';
import { createScrapeEngines } from '../../../server/platform/metrics/scrape-engines';
import { createUrlPolicy } from '../../../server/platform/url-policy/create-url-policy';
import { createBrowserSlots } from '../../../server/scrape/admit/browser-slots';
import { createCachedCapture } from '../../../server/scrape/capture/cached-capture';
import { createScraper } from '../../../server/scrape/create-scraper';
import type { ScrapeMetrics } from '../../../server/scrape/emit/count-scraped-pages';
import { createInteractOptionsMemory } from '../../../server/scrape/emit/interact-options';
import type { ScrapeAdmission } from '../../../server/scrape/types/scraper';
import { useEmbeddedStores } from '../../helpers/use-embedded-stores';

const embedded = useEmbeddedStores();

const page = (url: string): PageCapture => ({
  url,
  statusCode: 200,
  contentType: 'text/html',
  rawHtml: '<html><head><title>A</title></head><body><p>Text</p></body></html>',
  renderedHtml: '<html><head><title>A</title></head><body><p>Text</p></body></html>',
});

/** The one scraper, over fakes that record what each admission made it hold. */
function setup() {
  const seen = {
    slotsTaken: 0,
    slotsFreed: 0,
    jobSlotRuns: 0,
    priorities: [] as Array<RunOptions['priority']>,
    timed: [] as string[],
    counted: [] as string[],
  };
  const jobSlots = createBrowserSlots(() => 4);
  const metrics = {
    scrapeDuration: {
      startTimer: ({ source }: { source: string }) => {
        seen.timed.push(source);
        return () => 0;
      },
    },
    pagesScraped: { inc: ({ source }: { source: string }) => void seen.counted.push(source) },
    engines: createScrapeEngines(),
  } as unknown as ScrapeMetrics;
  const interactOptions = createInteractOptionsMemory();
  const scraper = createScraper({
    cachedCapture: createCachedCapture({ cache: embedded.stores.cache, log: silentLog }),
    results: embedded.stores.results,
    log: silentLog,
    urlPolicy: createUrlPolicy({ allowPrivateNetworks: false, lookup: async () => ['93.184.215.14'] }),
    runTask: async (spec, options) => {
      seen.priorities.push(options.priority);
      return page(spec.url);
    },
    teamLimits: {
      admit: async () => {
        seen.slotsTaken += 1;
        return () => void (seen.slotsFreed += 1);
      },
    },
    creditLedger: embedded.stores.creditLedger,
    jobBrowserSlots: {
      run: (work) => ((seen.jobSlotRuns += 1), jobSlots.run(work)),
      inUse: () => jobSlots.inUse(),
    },
    metrics,
    interactOptions,
  });
  return { scraper, seen, interactOptions };
}

let pages = 0;
async function scrapeAs(admission: ScrapeAdmission) {
  const { scraper, seen, interactOptions } = setup();
  const teamId = `team-${(pages += 1)}`;
  const request = ScrapeRequestV2.parse({ url: `https://a.example/${pages}`, maxAge: 0 });
  const document = await scraper.scrape(request, { teamId, admission });
  const booked = await embedded.stores.creditLedger.entriesForTeam(teamId);
  const remembered = interactOptions.recall(document.metadata.scrapeId, teamId) !== undefined;
  return { seen, booked: booked.map(({ _id, state }) => ({ _id, state })), document, remembered };
}

describe('the admission a caller declares', () => {
  it('api: a team slot, booked credits, a foreground task, scrape metrics, remembered options', async () => {
    const { seen, booked, document, remembered } = await scrapeAs('api');
    expect(seen).toMatchObject({ slotsTaken: 1, slotsFreed: 1, jobSlotRuns: 0, priorities: [undefined] });
    expect(seen).toMatchObject({ timed: ['scrape'], counted: ['scrape'] });
    expect(booked).toEqual([{ _id: `scrape:${document.metadata.scrapeId}`, state: 'charged' }]);
    expect(remembered).toBe(true);
  });

  it('product-job: a team slot, booked credits, a background task in a job slot, job metrics', async () => {
    const { seen, booked, document, remembered } = await scrapeAs('product-job');
    expect(seen).toMatchObject({ slotsTaken: 1, slotsFreed: 1, jobSlotRuns: 1, priorities: ['background'] });
    expect(seen).toMatchObject({ timed: ['job'], counted: ['job'] });
    expect(booked).toEqual([{ _id: `scrape:${document.metadata.scrapeId}`, state: 'charged' }]);
    expect(remembered).toBe(false);
  });

  it('monitor-check: booked credits and a background task in a job slot, no team slot', async () => {
    const { seen, booked, document } = await scrapeAs('monitor-check');
    expect(seen).toMatchObject({ slotsTaken: 0, jobSlotRuns: 1, priorities: ['background'] });
    expect(seen).toMatchObject({ timed: ['job'], counted: ['job'] });
    expect(booked).toEqual([{ _id: `scrape:${document.metadata.scrapeId}`, state: 'charged' }]);
  });

  it('job-page: a background task in a job slot, nothing booked, no team slot', async () => {
    const { seen, booked, remembered } = await scrapeAs('job-page');
    expect(seen).toMatchObject({ slotsTaken: 0, jobSlotRuns: 1, priorities: ['background'] });
    expect(seen).toMatchObject({ timed: ['job'], counted: ['job'] });
    expect(booked).toEqual([]);
    expect(remembered).toBe(false);
  });

  it('product-request: a foreground task, nothing booked, no slot of any kind', async () => {
    const { seen, booked, remembered } = await scrapeAs('product-request');
    expect(seen).toMatchObject({ slotsTaken: 0, jobSlotRuns: 0, priorities: [undefined] });
    expect(seen).toMatchObject({ timed: ['scrape'], counted: ['scrape'] });
    expect(booked).toEqual([]);
    expect(remembered).toBe(false);
  });

  it('frees the team slot and gives the credits back when the page fails', async () => {
    const { scraper, seen } = setup();
    const teamId = `team-${(pages += 1)}`;
    const request = ScrapeRequestV2.parse({ url: 'https://a.example/', excludeTags: ['div[[['] });
    await expect(scraper.scrape(request, { teamId, admission: 'api' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    expect(seen).toMatchObject({ slotsTaken: 1, slotsFreed: 1 });
    expect(await embedded.stores.creditLedger.entriesForTeam(teamId)).toEqual([]);
  });
});
