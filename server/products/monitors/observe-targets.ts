import { setTimeout as sleep } from 'node:timers/promises';
import type { JobService } from '../jobs';
import type { Log } from '../../platform/log';
import type { Scraper } from '../../scrape/types';
import { type ChangeTracking, compareJson, gitDiff } from '../../scrape/enrich';
import type { SearchService } from '../search';
import type { ChangeSnapshotStore, MonitorPageStatus, MonitorTargetOutcome } from '../../platform/store';
import type { RunnableTarget } from './monitor-targets';

/** One page as a check saw it, before it is compared with the previous check. */
export interface ObservedPage {
  targetId: string;
  url: string;
  status: MonitorPageStatus;
  statusCode?: number;
  error?: string;
  scrapeId?: string;
  title?: string;
  previousScrapeAt?: string | null;
  diff?: { text?: string; json?: unknown };
  snapshot?: { json?: unknown };
}

export interface TargetObservation {
  pages: ObservedPage[];
  outcome: MonitorTargetOutcome;
  credits: number;
}

export interface ObserveDeps {
  /** Books each page on the team's ledger as a scrape (admission `monitor-check`). */
  scraper: Scraper;
  jobs: JobService | undefined;
  search: SearchService | undefined;
  changeSnapshots: ChangeSnapshotStore;
  log: Log;
  /** How often a crawl's status is read while it runs. */
  crawlPollMs?: number;
  /** A crawl still running after this long is cancelled, and its target reported failed. */
  crawlTimeoutMs?: number;
}

/** Scrapes of one scrape target in flight at once. */
const SCRAPE_PARALLELISM = 4;
const CRAWL_PAGE_SIZE = 100;

const errorMessage = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * A page document's change tracking as the monitor reports it: the status, and for a change the
 * diff (the Markdown's unified diff as `text`; `json` the diff's hunks, or the per-field changes
 * when the target tracks JSON) and the JSON snapshot.
 */
interface PageContext {
  teamId: string;
  tag: string;
  changeSnapshots: ChangeSnapshotStore;
  /** When the check started: pages are compared with what was seen before it. */
  since: Date;
}

/** Markdown compared with all whitespace removed, as the changeTracking format compares it. */
const squeeze = (markdown: string) => markdown.replace(/\s+/g, '');

/**
 * The change tracking of a page as the change since the previous check. Almost always the
 * format's own answer; but when a page ran twice in this check (a crawl page task taken by two
 * instances on a database that does not isolate claims, FerretDB 1.x), the format compared the
 * second run with the first: then the page is compared again, from the same history, with the
 * latest version from before the check.
 */
async function sinceCheckStart(
  tracking: ChangeTracking | undefined,
  { teamId, url, tag, jsonMode, changeSnapshots, since }: PageContext & { url: string; jsonMode: boolean },
): Promise<ChangeTracking | undefined> {
  if (tracking?.previousScrapeAt == null || Date.parse(tracking.previousScrapeAt) < since.getTime())
    return tracking;
  const [before, latest] = await Promise.all([
    changeSnapshots.latest({ teamId, url, tag, before: since }),
    changeSnapshots.latest({ teamId, url, tag }),
  ]);
  if (latest === undefined) return tracking;
  if (before === undefined) return { previousScrapeAt: null, changeStatus: 'new', visibility: 'visible' };
  const base = { previousScrapeAt: before.scrapedAt.toISOString(), visibility: 'visible' as const };
  if (tracking.changeStatus === 'removed') return { ...base, changeStatus: 'removed' };
  if (squeeze(before.markdown) === squeeze(latest.markdown)) return { ...base, changeStatus: 'same' };
  return {
    ...base,
    changeStatus: 'changed',
    diff: gitDiff(before.markdown, latest.markdown),
    ...(jsonMode ? { json: compareJson(before.json ?? {}, latest.json ?? {}) } : {}),
  };
}

/** What pageOf reads of a page's document (a scrape's, a crawl page's or a search result's). */
interface TrackedDocument {
  metadata?: Record<string, unknown>;
  changeTracking?: ChangeTracking;
  warning?: string;
}

async function pageOf(
  document: TrackedDocument,
  targetId: string,
  { teamId, tag, jsonMode, changeSnapshots, since }: PageContext & { jsonMode: boolean },
): Promise<ObservedPage> {
  const metadata = document.metadata ?? {};
  const url = String(metadata.sourceURL ?? metadata.url ?? '');
  const tracking = await sinceCheckStart(document.changeTracking, {
    teamId,
    url,
    tag,
    jsonMode,
    changeSnapshots,
    since,
  });
  const base: ObservedPage = {
    targetId,
    url,
    status: tracking?.changeStatus ?? 'error',
    ...(typeof metadata.statusCode === 'number' ? { statusCode: metadata.statusCode } : {}),
    ...(typeof metadata.scrapeId === 'string' ? { scrapeId: metadata.scrapeId } : {}),
    ...(typeof metadata.title === 'string' ? { title: metadata.title } : {}),
    ...(tracking === undefined ? {} : { previousScrapeAt: tracking.previousScrapeAt }),
  };
  if (tracking === undefined) {
    const error = document.warning ?? metadata.error;
    return { ...base, error: typeof error === 'string' ? error : 'The page has no change tracking result' };
  }
  if (tracking.changeStatus === 'changed') {
    base.diff = {
      ...(tracking.diff === undefined ? {} : { text: tracking.diff.text }),
      ...(jsonMode
        ? { json: tracking.json ?? {} }
        : tracking.diff === undefined
          ? {}
          : { json: tracking.diff.json }),
    };
  }
  if (jsonMode && tracking.changeStatus !== 'removed') {
    const latest = await changeSnapshots.latest({ teamId, url, tag }).catch(() => undefined);
    if (latest?.json !== undefined) base.snapshot = { json: latest.json };
  }
  return base;
}

async function inPool<T, R>(items: readonly T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
  return results;
}

/**
 * Runs one target through Tabhive's own services: each scrape URL through the scraper (booked),
 * a crawl as a crawl job (the job runner, on any instance, books its pages), a search through the
 * search service (which books the search). Each page is scraped with the changeTracking format
 * under the target's history tag.
 */
export async function observeTarget(
  target: RunnableTarget,
  { teamId, tag, signal, since }: { teamId: string; tag: string; signal: AbortSignal; since: Date },
  deps: ObserveDeps,
): Promise<TargetObservation> {
  const context: PageContext = { teamId, tag, changeSnapshots: deps.changeSnapshots, since };
  switch (target.type) {
    case 'scrape': {
      let credits = 0;
      const pages = await inPool(target.requests, SCRAPE_PARALLELISM, async (request) => {
        if (signal.aborted)
          return {
            targetId: target.id,
            url: request.url.raw,
            status: 'error' as const,
            error: 'The check was stopped',
          };
        try {
          const document = await deps.scraper.scrape(request, { teamId, admission: 'monitor-check' });
          credits += document.metadata.creditsUsed;
          return await pageOf(document, target.id, { ...context, jsonMode: target.jsonMode });
        } catch (err) {
          const status = (err as { status?: unknown }).status;
          return {
            targetId: target.id,
            url: request.url.raw,
            status: 'error' as const,
            error: errorMessage(err),
            ...(typeof status === 'number' ? { statusCode: status } : {}),
          };
        }
      });
      return {
        pages,
        credits,
        outcome: {
          targetId: target.id,
          type: 'scrape',
          expectedJobs: pages.flatMap((page) => (page.scrapeId === undefined ? [] : [page.scrapeId])),
        },
      };
    }
    case 'crawl':
      return observeCrawl(target, { teamId, signal, context }, deps);
    case 'search':
      return observeSearch(target, { teamId, context }, deps);
  }
}

async function observeCrawl(
  target: Extract<RunnableTarget, { type: 'crawl' }>,
  {
    teamId,
    signal,
    context,
  }: {
    teamId: string;
    signal: AbortSignal;
    context: PageContext;
  },
  deps: ObserveDeps,
): Promise<TargetObservation> {
  const { jobs } = deps;
  if (jobs === undefined) throw new Error('This server runs no crawl jobs');
  const crawlId = await jobs.startCrawl(teamId, target.spec);
  const deadline = Date.now() + (deps.crawlTimeoutMs ?? 30 * 60_000);
  for (;;) {
    const status = await jobs.status(teamId, crawlId, { skip: 0, limit: 1 });
    if (status === undefined) throw new Error('The crawl job disappeared');
    if (status.status !== 'scraping') break;
    if (signal.aborted || Date.now() > deadline) {
      await jobs.cancel(teamId, crawlId);
      throw new Error(signal.aborted ? 'The check was stopped' : 'The crawl did not finish in time');
    }
    await sleep(deps.crawlPollMs ?? 500);
  }
  const pages: ObservedPage[] = [];
  let credits = 0;
  for (let skip = 0; ;) {
    const status = await jobs.status(teamId, crawlId, { skip, limit: CRAWL_PAGE_SIZE });
    if (status === undefined) break;
    credits = status.creditsUsed;
    for (const document of status.data) {
      pages.push(
        await pageOf(document as TrackedDocument, target.id, { ...context, jsonMode: target.jsonMode }),
      );
    }
    if (status.nextSkip === undefined || status.data.length === 0) break;
    skip = status.nextSkip;
  }
  const failed = await jobs.errors(teamId, crawlId);
  if (failed.found) {
    for (const error of failed.errors) {
      pages.push({ targetId: target.id, url: error.url, status: 'error', error: error.error });
    }
  }
  return { pages, credits, outcome: { targetId: target.id, type: 'crawl', crawlId } };
}

async function observeSearch(
  target: Extract<RunnableTarget, { type: 'search' }>,
  { teamId, context }: { teamId: string; context: PageContext },
  deps: ObserveDeps,
): Promise<TargetObservation> {
  const { search } = deps;
  if (search === undefined) throw new Error('This server has no search service');
  const pages: ObservedPage[] = [];
  const seen = new Set<string>();
  let credits = 0;
  let resultCount = 0;
  for (const query of target.queries) {
    const answer = await search.search(
      {
        query,
        sources: ['web'],
        categories: [],
        includeDomains: target.includeDomains,
        excludeDomains: target.excludeDomains,
        limit: target.maxResults,
        tbs: target.tbs,
        lang: 'en',
        country: 'us',
        timeout: 120_000,
        ignoreInvalidURLs: true,
        scrapeOptions: target.scrapeOptions,
      },
      teamId,
    );
    credits += answer.creditsUsed;
    for (const result of answer.data.web ?? []) {
      resultCount += 1;
      const url = result.url;
      if (url === undefined || seen.has(url)) continue;
      seen.add(url);
      const document = result as TrackedDocument;
      const page = await pageOf(
        { ...document, metadata: { ...document.metadata, sourceURL: url } },
        target.id,
        { ...context, jsonMode: false },
      );
      pages.push(page);
    }
  }
  return {
    pages,
    credits,
    outcome: {
      targetId: target.id,
      type: 'search',
      searchCompleted: true,
      resultCount,
      searchCredits: credits,
    },
  };
}
