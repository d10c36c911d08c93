import { randomUUID } from 'node:crypto';
import { MAX_CRAWL_DELAY_S } from '../../../shared/api/crawl-delay';
import { extractLinks } from '../../../shared/html/extract-links';
import type { PageCapture } from '../../../shared/protocol/messages';
import type { Egress } from '../../platform/egress';
import { TabhiveError, errors } from '../../platform/errors';
import { urlForLog, type Log, withLogContext } from '../../platform/log';
import type { Scraper } from '../../scrape/types';
import type { SiteFiles } from '../../scrape/capture';
import { scrapeCredits } from '../../scrape/admit';
import { type Stores, type Job, type PageTask, attributeUsage } from '../../platform/store';
import { enqueueWebhook } from './enqueue-webhook';
import { pageChallengeWebhook, type ChallengeLiveViews } from './page-challenge-webhook';
import {
  compilePatterns,
  inCrawlScope,
  judgeLink,
  judgeTarget,
  robotsFor as agentRobots,
  urlKey,
  type CompiledPatterns,
} from './crawl-rules';
import { fetchRobots, fetchSitemapUrls } from './crawl-discovery';
import type { RobotsRules } from './robots-txt';
import type { JobSpec } from './job-spec';
import { withJsonKey } from '../../scrape';
import { LIVE_STATES, finishIfDone } from './finish-job';
import { createResumedJobsLog } from './resumed-jobs';

/** Lease of a running page task; renewed every third of it while the page runs (docs/running-at-scale.md#leases-and-durable-writes). */
export const TASK_LEASE_MS = 30_000;
const POLL_MS = 200;
/** How often the queue is asked while the store is down. */
const UNAVAILABLE_POLL_MS = 2_000;
/**
 * Polls at a random point of the period's middle: two runners (two instances, or two in one
 * process) polling in step each claim a task at the same moment, each sees the other's lease over
 * a team or job limit, and both put their task back, round after round.
 */
const jittered = (ms: number) => ms * (0.5 + Math.random());
/**
 * Runs of a page that may fail for reasons outside the page (its browser went away, none was
 * connected, the store was down) before it fails for good (docs/running-at-scale.md#leases-and-durable-writes). Each run
 * already has the hub's own retry on a second browser.
 */
const MAX_FAILED_RUNS = 3;
const RETRY_BACKOFF_MS = 1_000;
/**
 * How much of a team's concurrency its crawl and batch pages may hold: all but a quarter (at
 * least one), so that a big crawl leaves the team's single scrapes room instead of 429s. A team
 * limited to one keeps it for whichever comes first.
 */
export function jobShareOfTeam(teamMax: number): number {
  return teamMax <= 1 ? teamMax : teamMax - Math.max(1, Math.floor(teamMax / 4));
}

/**
 * A claimed task that must wait for its job's or team's concurrency, taken by other instances'
 * pages, goes back for this long: nothing here hears when those pages finish.
 */
const WAIT_MS = 250;
/**
 * One held back by this runner's own pages (its team's or job's share, its browser slots) goes to
 * the back of the queue but stays available: one of those pages finishing wakes the runner, which
 * claims again at once. Held back 250 ms instead, the pages claimed past the team's share (a
 * runner may have more in flight than one team may use) stalled a fast-path crawl for a quarter
 * second each.
 */
const BACK_OF_THE_LINE = 0;
const SWEEP_MS = 5_000;
const MAX_WAITS_PER_ROUND = 3;

const RETRYABLE_CODES = new Set(['NO_BROWSER_AVAILABLE', 'SCRAPE_ALL_ENGINES_FAILED', 'STORE_UNAVAILABLE']);

/**
 * Runs page tasks of crawl and batch jobs from the store: claims with a lease, renews it while
 * the page runs, scrapes the page through the same pipeline as `/v2/scrape`, stores the document
 * under the job (keyed by the task, so a page that runs twice is stored once), charges it once
 * (ledger key `page:<taskId>`), follows the crawl's links, and finishes the job when nothing is
 * queued or running. Several runners (server instances) may share one store.
 *
 * `capacity()` is how many pages that need a browser this runner may have in flight: the tabs
 * its browsers have (a single scrape takes the next tab that frees, ahead of job pages). Jobs whose
 * pages the HTTP fast path may serve get `httpPages.extra` more: those take a browser slot
 * (browser-slots.ts) only if they turn out to need one.
 */
export function createJobRunner({
  stores,
  scraper,
  egress,
  siteFiles = { forTeam: () => egress },
  log,
  capacity,
  httpPages,
  teamConcurrency = Infinity,
  challengeViews,
}: {
  stores: Stores;
  scraper: Scraper;
  egress: Egress;
  /**
   * Who reads a team's robots.txt and sitemaps: the team's donated browser for a site only it may
   * reach (an intranet), the egress otherwise. Without it, the egress for every site.
   */
  siteFiles?: SiteFiles;
  log: Log;
  capacity: () => number;
  /** Pages beyond `capacity()` for jobs whose pages the HTTP fast path may serve (`eligible`). */
  httpPages?: { extra: number; eligible(spec: JobSpec): boolean };
  /** Pages a team may run at once when the team has no setting of its own (TEAM_CONCURRENCY). */
  teamConcurrency?: number;
  /** Live views of a page's tab that waits on a challenge, for the job's `page.challenge` webhook. */
  challengeViews?: ChallengeLiveViews | undefined;
}) {
  const owner = randomUUID();
  /** `browser`: the page's job has every page in a browser, so it counts against `capacity()`. */
  const running = new Map<string, { jobId: string; teamId: string; token: string; browser: boolean }>();
  const lastStart = new Map<string, number>();
  const robotsCache = new Map<string, Promise<RobotsRules | undefined>>();
  const patternCache = new Map<string, CompiledPatterns>();
  const enqueueChains = new Map<string, Promise<unknown>>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let sweepTimer: NodeJS.Timeout | undefined;
  const resumed = createResumedJobsLog({ stores, log });

  const count = (predicate: (entry: { jobId: string; teamId: string; browser: boolean }) => boolean) =>
    [...running.values()].filter(predicate).length;

  const robotsFor = ({ _id: jobId, teamId }: Pick<Job, '_id' | 'teamId'>, origin: string) => {
    const key = `${jobId} ${origin}`;
    let rules = robotsCache.get(key);
    if (rules === undefined) {
      rules = fetchRobots(siteFiles.forTeam(teamId), origin);
      robotsCache.set(key, rules);
    }
    return rules;
  };

  /** One enqueue at a time per job in this process, so the limit check and the insert do not interleave. */
  const serially = <T>(jobId: string, work: () => Promise<T>): Promise<T> => {
    const previous = enqueueChains.get(jobId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(work);
    enqueueChains.set(jobId, next);
    return next;
  };

  /**
   * The URL keys each crawl is known to hold: a task, once enqueued, stays in the store for as
   * long as its job, so a link seen again (navigation, neighbours) costs no store query.
   */
  const knownKeys = new Map<string, Set<string>>();
  const knownKeysOf = (jobId: string) => {
    let keys = knownKeys.get(jobId);
    if (keys === undefined) {
      keys = new Set();
      knownKeys.set(jobId, keys);
    }
    return keys;
  };

  /**
   * Adds a crawl's pages that are not known already, while the crawl is below its `limit`. The
   * job's live tasks are counted once per batch: enqueues of a job run one at a time in this
   * process, so the count only grows by what this batch adds.
   */
  const addPages = (job: Job, spec: JobSpec, pages: ReadonlyArray<{ url: URL; depth: number }>) =>
    serially(job._id, async () => {
      const crawl = spec.crawl!;
      const known = knownKeysOf(job._id);
      const fresh = pages
        .map((page) => ({ ...page, key: urlKey(page.url, crawl.rules) }))
        .filter((page) => !known.has(page.key));
      if (fresh.length === 0) return;
      let live = await stores.pageTasks.countInStates(job._id, LIVE_STATES);
      for (const page of fresh) {
        if (known.has(page.key)) continue;
        if (live >= crawl.limit) return;
        const added = await stores.pageTasks.enqueue({
          jobId: job._id,
          teamId: job.teamId,
          url: page.url.href,
          urlKey: page.key,
          depth: page.depth,
        });
        // Added now, or there already: either way the job holds it from now on.
        known.add(page.key);
        if (added) live += 1;
      }
    });

  const patternsOf = (jobId: string, spec: JobSpec) => {
    let patterns = patternCache.get(jobId);
    if (patterns === undefined) {
      patterns = compilePatterns(spec.crawl!.rules);
      patternCache.set(jobId, patterns);
    }
    return patterns;
  };

  const discover = async (
    job: Job,
    spec: JobSpec,
    task: PageTask,
    capture: PageCapture | undefined,
    /** The capture's links when the worker read them already; otherwise they are read here. */
    pageLinks?: string[],
  ) => {
    const crawl = spec.crawl!;
    const start = new URL(crawl.startUrl);
    const patterns = patternsOf(job._id, spec);
    const robotsOf = (url: URL) =>
      crawl.ignoreRobotsTxt ? Promise.resolve(undefined) : robotsFor(job, url.origin);
    const isStart = task.depth === 0 && task.url === crawl.startUrl;
    const found: Array<{ url: URL; depth: number }> = [];

    if (isStart && crawl.sitemap !== 'skip') {
      const robots = await robotsOf(start);
      for (const entry of await fetchSitemapUrls(siteFiles.forTeam(job.teamId), start, robots)) {
        let url: URL;
        try {
          url = new URL(entry);
        } catch {
          continue;
        }
        // The same host rules as links: a sitemap may list any site.
        if (!inCrawlScope(url, start, crawl.rules)) continue;
        if (
          judgeTarget({ url, start, rules: crawl.rules, patterns, robots: await robotsOf(url) }) === 'follow'
        )
          found.push({ url, depth: 0 });
      }
    }
    if (capture !== undefined && crawl.sitemap !== 'only') {
      // The scraper gave the map index these links already.
      const links = pageLinks ?? extractLinks(capture.rawHtml, capture.url);
      for (const href of links) {
        let link: URL;
        try {
          link = new URL(href);
        } catch {
          continue;
        }
        // Out of scope is a skip whatever robots.txt says: no fetch of another site's robots.txt.
        if (!inCrawlScope(link, start, crawl.rules)) continue;
        const robots = await robotsOf(link);
        const verdict = judgeLink({
          link,
          start,
          fromDepth: task.depth,
          rules: crawl.rules,
          patterns,
          robots,
        });
        if (verdict === 'follow') found.push({ url: link, depth: task.depth + 1 });
        else if (verdict === 'robots')
          await stores.crawlNotes.noteRobotsBlocked(job._id, urlKey(link, crawl.rules), link.href);
      }
    }
    await addPages(job, spec, found);
  };

  const startIsFilteredOut = async (job: Job, spec: JobSpec, task: PageTask) => {
    const crawl = spec.crawl;
    if (crawl === undefined || task.depth !== 0 || task.url !== crawl.startUrl) return false;
    const start = new URL(crawl.startUrl);
    const robots = crawl.ignoreRobotsTxt ? undefined : await robotsFor(job, start.origin);
    const patterns = patternsOf(job._id, spec);
    return judgeTarget({ url: start, start, rules: crawl.rules, patterns, robots }) !== 'follow';
  };

  const failureOf = (err: unknown) =>
    err instanceof TabhiveError
      ? { code: err.code, error: err.message, retry: err.code !== undefined && RETRYABLE_CODES.has(err.code) }
      : { code: undefined, error: err instanceof Error ? err.message : String(err), retry: true };

  /**
   * A page stops counting against this runner's limits just before its lease is released, never
   * after: so the pages counted here are always among the leases other instances count.
   */
  const leave = (taskId: string) => running.delete(taskId);

  const runTask = async (task: PageTask & { leaseToken?: string }) => {
    const token = task.leaseToken ?? '';
    const job = await stores.jobs.get(task.jobId);
    if (job === undefined || job.status !== 'scraping') {
      await stores.pageTasks.fail(task._id, token, JSON.stringify({ error: 'Parent job was cancelled' }));
      if (job !== undefined) await finishIfDone(stores, job._id, log);
      return;
    }
    // Only a line in the log: the page runs whether or not it could be written.
    void resumed.pageOf(job).catch(() => undefined);
    const spec = job.request as JobSpec;
    // The page's credits are taken before it runs, so a team's pages cannot spend more than it has.
    const chargeKey = `page:${task._id}`;
    const reservation = await stores.creditLedger.reserve({
      key: chargeKey,
      teamId: job.teamId,
      credits: scrapeCredits({ formats: spec.scrapeOptions.formats }),
      reason: `${job.kind} ${job._id}`,
      apiKey: job.apiKey,
    });
    if (reservation.status === 'insufficient') {
      log.warn('page task failed', {
        jobId: job._id,
        taskId: task._id,
        teamId: job.teamId,
        kind: job.kind,
        url: urlForLog(task.url),
        code: 'INSUFFICIENT_CREDITS',
      });
      leave(task._id);
      await stores.pageTasks.fail(
        task._id,
        token,
        JSON.stringify({ error: errors.insufficientCredits(job.teamId).message }),
      );
      await finishIfDone(stores, job._id, log);
      return;
    }
    const heartbeat = setInterval(() => {
      stores.pageTasks.heartbeat(task._id, token, TASK_LEASE_MS).catch(() => undefined);
    }, TASK_LEASE_MS / 3);
    // With a webhook, a challenge page waits for an operator told through it (page-challenge-webhook.ts).
    const onChallenge = pageChallengeWebhook({
      outbox: stores.webhookOutbox,
      views: challengeViews,
      job,
      spec,
      log,
    });
    try {
      let capture: PageCapture | undefined;
      let captureLinks: string[] | undefined;
      // The page's model tokens are the job's: the team's, under the key that started it.
      const scraped = await attributeUsage({ teamId: job.teamId, apiKey: job.apiKey }, () =>
        scraper.scrape(
          {
            ...spec.scrapeOptions,
            url: { raw: task.url, url: task.url },
            zeroDataRetention: spec.zeroDataRetention,
          },
          {
            teamId: job.teamId,
            admission: 'job-page',
            scrapeId: task._id,
            keepResult: false,
            pageLinks: spec.crawl !== undefined && spec.crawl.sitemap !== 'only',
            onCapture: (c, links) => {
              capture = c;
              captureLinks = links;
            },
            ...(onChallenge === undefined ? {} : { onChallenge }),
          },
        ),
      );
      const document = withJsonKey(scraped, spec.jsonKey ?? 'json');
      if (spec.crawl !== undefined) await discover(job, spec, task, capture, captureLinks);
      if (await startIsFilteredOut(job, spec, task)) {
        // Its links count, the page does not (docs/wire-contract.md §8): it fails instead of joining `data`.
        leave(task._id);
        await stores.creditLedger.release(chargeKey);
        await stores.pageTasks.fail(
          task._id,
          token,
          JSON.stringify({
            error: 'The start URL does not pass the crawl filters (includePaths, excludePaths, robots.txt)',
          }),
        );
      } else {
        const credits = document.metadata.creditsUsed;
        // The reservation is gone when the page was charged by an earlier run, or when it was
        // released under this run (its first instance died and the reservation went back with
        // it): charging by key books it exactly once either way.
        const charged =
          (await stores.creditLedger.settle(chargeKey, credits)) ??
          ((await stores.creditLedger.charge({
            key: chargeKey,
            teamId: job.teamId,
            credits,
            reason: `${job.kind} ${job._id}`,
            apiKey: job.apiKey,
          }))
            ? credits
            : undefined);
        let sequence: number | undefined;
        if (charged !== undefined)
          sequence = (await stores.jobs.count(job._id, { completed: 1, creditsUsed: credits }))?.completed;
        sequence ??= (await stores.results.get(task._id))?.sequence;
        sequence ??= (await stores.jobs.count(job._id, { completed: 1 }))?.completed ?? 0;
        await stores.results.put({ id: task._id, teamId: job.teamId, jobId: job._id, sequence, document });
        await enqueueWebhook({
          outbox: stores.webhookOutbox,
          job,
          spec,
          event: 'page',
          key: `page:${task._id}`,
          data: [document],
        });
        leave(task._id);
        await stores.pageTasks.complete(task._id, token);
      }
    } catch (err) {
      const failure = failureOf(err);
      if (spec.crawl !== undefined && task.depth === 0 && task.url === spec.crawl.startUrl) {
        // The start page's sitemap still counts when the page itself fails.
        await discover(job, spec, task, undefined).catch(() => undefined);
      }
      leave(task._id);
      await stores.creditLedger.release(chargeKey).catch(() => undefined);
      const failedRuns = failedRunsOf(task.error) + 1;
      const retryAt =
        failure.retry && failedRuns < MAX_FAILED_RUNS ? new Date(Date.now() + RETRY_BACKOFF_MS) : undefined;
      log.warn('page task failed', {
        jobId: job._id,
        taskId: task._id,
        teamId: job.teamId,
        kind: job.kind,
        url: urlForLog(task.url),
        ...(failure.code === undefined ? {} : { code: failure.code }),
        error: failure.error,
        failedRuns,
        retrying: retryAt !== undefined,
      });
      await stores.pageTasks.fail(
        task._id,
        token,
        JSON.stringify({
          ...(failure.code === undefined ? {} : { code: failure.code }),
          error: failure.error,
          failedRuns,
        }),
        retryAt === undefined ? {} : { retryAt },
      );
    } finally {
      clearInterval(heartbeat);
    }
    await finishIfDone(stores, job._id, log);
  };

  /**
   * `delay`, or else the start site's robots.txt `Crawl-delay` (docs/wire-contract.md §6.2), in seconds, held to
   * MAX_CRAWL_DELAY_S: neither a site's robots.txt nor a job stored before the API bounded `delay`
   * may push a page's start past any date the store can hold (the crawl would never start).
   */
  const delayOf = async (job: Job, spec: JobSpec): Promise<number | undefined> => {
    if (spec.delay !== undefined) return Math.min(spec.delay, MAX_CRAWL_DELAY_S);
    const crawl = spec.crawl;
    if (crawl === undefined || crawl.ignoreRobotsTxt) return undefined;
    const robots = await robotsFor(job, new URL(crawl.startUrl).origin);
    // The Crawl-delay of the group the crawl's agent reads (robotsUserAgent), as its rules are.
    const delay = robots === undefined ? undefined : agentRobots(robots, crawl.rules).crawlDelay;
    return delay !== undefined && delay > 0 ? Math.min(delay, MAX_CRAWL_DELAY_S) : undefined;
  };

  /** No page is claimed while no browser is connected, since any page may turn out to need one. */
  const pagesInFlight = () => {
    const browserPages = capacity();
    return browserPages === 0 ? 0 : browserPages + (httpPages?.extra ?? 0);
  };

  /**
   * Whether this claimed task may start now, given its job's and team's limits, `delay`, and the
   * browser capacity when every page of its job needs a browser; `wait` says for how long not.
   */
  const mayStart = async (task: PageTask): Promise<{ wait?: number; browser: boolean }> => {
    const job = await stores.jobs.get(task.jobId);
    if (job === undefined || job.status !== 'scraping') return { browser: false };
    const spec = job.request as JobSpec;
    const browser = httpPages === undefined || !httpPages.eligible(spec);
    const wait = await limitsWait(job, spec);
    if (wait !== undefined) return { wait, browser };
    if (browser && count((entry) => entry.browser) >= capacity()) return { wait: BACK_OF_THE_LINE, browser };
    return { browser };
  };

  const limitsWait = async (job: Job, spec: JobSpec): Promise<number | undefined> => {
    const team = await stores.teams.get(job.teamId);
    const teamMax = jobShareOfTeam(team?.maxConcurrency ?? teamConcurrency);
    const delay = await delayOf(job, spec);
    const jobMax = delay !== undefined ? 1 : (spec.maxConcurrency ?? Infinity);
    if (count((entry) => entry.teamId === job.teamId) >= teamMax) return BACK_OF_THE_LINE;
    // The team's limit holds across instances: every instance's live leases are in the store
    // (this task's own lease among them, hence `>`).
    if ((await stores.pageTasks.countRunningForTeam(job.teamId)) > teamMax) return WAIT_MS;
    // Leases in the store count the other instances' pages too; this one's lease is among them.
    if ((await stores.pageTasks.countInState(job._id, 'leased')) > jobMax) return WAIT_MS;
    if (count((entry) => entry.jobId === job._id) >= jobMax) return BACK_OF_THE_LINE;
    if (delay !== undefined) {
      const wait = (lastStart.get(job._id) ?? 0) + delay * 1000 - Date.now();
      if (wait > 0) return wait;
    }
    return undefined;
  };

  const tick = async () => {
    // A few tasks that must wait per round at most: a job held back by its limits must not make
    // the runner claim and return every one of its queued pages each round.
    let waits = 0;
    while (!stopped && running.size < pagesInFlight() && waits < MAX_WAITS_PER_ROUND) {
      const task = await stores.pageTasks.claimNext({ owner, leaseMs: TASK_LEASE_MS });
      if (task === undefined) return;
      const token = (task as PageTask & { leaseToken: string }).leaseToken;
      const { wait, browser } = await mayStart(task);
      if (stopped) {
        // stop() came while the claim was on its way: the task is not among the pages it handed
        // back, and running it here would hold its lease for as long as the page takes.
        await stores.pageTasks.fail(task._id, token, task.error ?? '', { retryAt: new Date(), notRun: true });
        return;
      }
      if (wait !== undefined) {
        // Back to the queue without counting as an attempt against the page.
        await stores.pageTasks.fail(task._id, token, task.error ?? '', {
          retryAt: new Date(Date.now() + wait),
          notRun: true,
        });
        waits += 1;
        continue;
      }
      running.set(task._id, { jobId: task.jobId, teamId: task.teamId, token, browser });
      lastStart.set(task.jobId, Date.now());
      // The scrape's own lines (a browser task that failed) carry the page's job and task.
      void withLogContext({ jobId: task.jobId, taskId: task._id }, () => runTask(task))
        .catch((err: unknown) =>
          log.warn('page task could not run', { jobId: task.jobId, taskId: task._id, error: String(err) }),
        )
        .finally(() => {
          running.delete(task._id);
          wake();
        });
    }
  };

  let unavailable = false;
  let ticking = false;
  /** A page finished while a round ran. */
  let woken = false;
  const loop = () => {
    if (stopped) return;
    clearTimeout(timer);
    ticking = true;
    tick()
      .then(() => {
        if (unavailable) log.info('job queue available again');
        unavailable = false;
      })
      .catch((err: unknown) => {
        // Said once per outage; the store is then asked again less often.
        if (!unavailable) log.warn('job queue unavailable', { error: String(err) });
        unavailable = true;
      })
      .finally(() => {
        ticking = false;
        const again = woken && !unavailable;
        woken = false;
        if (!stopped)
          timer = setTimeout(loop, again ? 0 : jittered(unavailable ? UNAVAILABLE_POLL_MS : POLL_MS));
      });
  };
  /**
   * A page that finished frees a slot and has usually queued the pages it links to: look at the
   * queue now rather than at the next poll, which would cap a fast crawl at a few pages per poll.
   */
  const wake = () => {
    if (stopped || unavailable) return;
    // During a round, the round may already have claimed past this page: look again right after it.
    if (ticking) {
      woken = true;
      return;
    }
    clearTimeout(timer);
    timer = setTimeout(loop, 0);
  };

  return {
    start() {
      resumed.start();
      loop();
      sweepTimer = setInterval(() => {
        const jobs = new Set([...running.values()].map((entry) => entry.jobId));
        for (const jobId of jobs) void finishIfDone(stores, jobId, log).catch(() => undefined);
        // A job with no page here has finished or runs elsewhere: its keys are rebuilt if it comes back.
        for (const jobId of knownKeys.keys()) if (!jobs.has(jobId)) knownKeys.delete(jobId);
      }, SWEEP_MS);
    },
    /**
     * Stops claiming and hands the pages in flight back to the queue, so another instance takes
     * them over at once; a process that dies instead leaves them to their leases' expiry.
     */
    async stop() {
      stopped = true;
      clearTimeout(timer);
      clearInterval(sweepTimer);
      await Promise.all(
        [...running.entries()].map(([id, entry]) =>
          stores.pageTasks
            .fail(id, entry.token, JSON.stringify({ error: 'server stopped' }), { retryAt: new Date() })
            .catch(() => false),
        ),
      );
    },
    inFlight: () => running.size,
  };
}

export type JobRunner = ReturnType<typeof createJobRunner>;

/** How many runs of a task failed so far, as its last error recorded. */
function failedRunsOf(error: string | undefined): number {
  try {
    const runs = (JSON.parse(error ?? '') as { failedRuns?: unknown }).failedRuns;
    return typeof runs === 'number' ? runs : 0;
  } catch {
    return 0;
  }
}
