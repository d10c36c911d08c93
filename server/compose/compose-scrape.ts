import {
  createTaskChallengeSignals,
  createBrowserSlots,
  createCachedCapture,
  createDerivationPool,
  createHttpFastPath,
  createInteractOptionsMemory,
  createScraper,
  createSiteFiles,
  countCacheLookups,
  deriveByKind,
  markHttpCaptures,
  worthAnotherBrowser,
} from '../scrape';
import { createMapIndexRecorder, searchIndexSink } from '../products';
import {
  type Config,
  type Lifecycle,
  type Log,
  isEgressProxyFailureStatus,
  looksLikeProxyFailure,
  withProxyRotation,
} from '../platform';
import type { Browsers } from './compose-browsers';
import type { Platform } from './compose-platform';

/**
 * The one scraper every caller uses, and what it stands on: the derivation worker pools, the job
 * pages' browser slots, the cache, the fast path, the indexes it feeds.
 */
export function composeScrape({
  config,
  log,
  lifecycle,
  platform: { metrics, stores, teamLimits, urlPolicy, egress, llm, proxyPool },
  browsers: { hub, cluster, runTask, donatedRoutes },
}: {
  config: Config;
  log: Log;
  lifecycle: Lifecycle;
  platform: Platform;
  browsers: Browsers;
}) {
  const derivationPool = createDerivationPool({
    log,
    onJobDone: (ms) => metrics.pageStageDuration.observe({ stage: 'derive' }, ms / 1000),
  });
  // Every page's formats come from these workers, whose code takes a worker a few hundred ms to
  // load. Warmed once the API is up rather than with it: loading them alongside the API's own code
  // and the browser's start slowed a cold start by 100-200 ms.
  lifecycle.use('derivation pool', {
    start: () => derivationPool.warm(),
    close: () => derivationPool.close(),
  });
  // Documents (uploads and scraped PDFs) in a pool of their own, whose worker is recycled after
  // each: a hostile document never holds the workers pages need, and gives back all it took.
  // Not warmed: documents are rare, its worker is ended after each one anyway, and an idle worker
  // from the start would cost every server memory and start-up CPU.
  const documentPool = createDerivationPool({ log, size: 1, name: 'document', recycle: true, heapMb: 768 });
  lifecycle.use('document pool', { close: () => documentPool.close() });
  const workProblems = () => [...derivationPool.problems(), ...documentPool.problems()];
  const mapIndexRecorder = createMapIndexRecorder({ mapIndex: stores.mapIndex, log });
  lifecycle.use('map index recorder', { close: () => mapIndexRecorder.idle() });
  const tabs = () => hub.poolTabs('basic');
  // Job pages hold a tab only when they go to a browser; those served over HTTP do not wait for one.
  // They may fill every tab: a task someone waits for (a scrape, a search) takes the next tab that
  // frees, ahead of the job's pages (task-scheduler.ts priorities).
  const jobBrowserSlots = createBrowserSlots(tabs);
  // The page settings of API scrapes, for interactions that reopen a scrape's page.
  const interactOptions = createInteractOptionsMemory();
  // The one scraper: each caller says in its context who asks (ScrapeAdmission), which decides the
  // team slot, the credits, the job browser slots and the metrics of its pages.
  // With a proxy pool, a page task's site is pinned to a proxy of its country, and a task that
  // fails on its proxy or looks blocked runs again on the next one (docs/browser-control.md#proxy-pool).
  const pageTasks =
    proxyPool === undefined
      ? runTask
      : withProxyRotation(runTask, proxyPool, {
          verdict: (capture) =>
            isEgressProxyFailureStatus(capture.statusCode)
              ? 'failure'
              : worthAnotherBrowser(capture)
                ? 'blocked'
                : 'ok',
          proxyFailure: looksLikeProxyFailure,
        });
  const scraper = createScraper({
    fastPath: config.HTTP_FAST_PATH
      ? markHttpCaptures(createHttpFastPath({ egress, deriveFetched: derivationPool.deriveFetched }), metrics)
      : undefined,
    derive: deriveByKind({ pages: derivationPool, documents: documentPool }),
    runTask: pageTasks,
    donatedRoutes,
    connectedBrowsers: cluster.connectedBrowsers,
    challengeWaitMs: config.CHALLENGE_WAIT_MS,
    // A launched browser's challenge page, passed by an operator through the live view (job webhooks).
    taskChallenges: createTaskChallengeSignals((listener) => hub.onSessionMessage(listener)),
    urlPolicy,
    cachedCapture: countCacheLookups(createCachedCapture({ cache: stores.cache, log }), metrics),
    results: stores.results,
    log,
    llm,
    changeSnapshots: stores.changeSnapshots,
    mapIndex: mapIndexRecorder,
    searchIndex: searchIndexSink(stores.searchIndex),
    browserProfiles: stores.browserProfiles,
    teamLimits,
    creditLedger: stores.creditLedger,
    jobBrowserSlots,
    metrics,
    interactOptions,
  });
  // robots.txt and sitemaps: a team's intranet site through its donated browser, others through the egress.
  const siteFiles = createSiteFiles({
    egress,
    donatedRoutes,
    runTask,
    networkPolicy: urlPolicy.networkPolicy,
  });
  return {
    scraper,
    siteFiles,
    derivationPool,
    documentPool,
    workProblems,
    mapIndexRecorder,
    tabs,
    jobBrowserSlots,
    interactOptions,
  };
}

export type Scrape = ReturnType<typeof composeScrape>;
