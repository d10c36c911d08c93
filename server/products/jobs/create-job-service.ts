import { servesFromCacheOnly } from '../../../shared/api/v2/cache-only';
import { classifyHost } from '../../../shared/url/classify-host';
import { randomUUID } from 'node:crypto';
import { type DonatedRoutes, routesToDonated } from '../../browsers/hub';
import { TabhiveError, errors } from '../../platform/errors';
import { urlForLog, type Log } from '../../platform/log';
import type { Stores, Job, JobKind } from '../../platform/store';
import type { UrlPolicy } from '../../platform/url-policy';
import { enqueueWebhook } from './enqueue-webhook';
import { compilePatterns, PatternError, urlKey } from './crawl-rules';
import { startFailureWarning, startPathWarning } from './crawl-warnings';
import { LIVE_STATES, finishIfDone } from './finish-job';
import type { JobSpec } from './job-spec';

/** Documents per status page unless the caller asks for fewer, and the most bytes of one page (docs/wire-contract.md §7.4). */
export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_BYTES = 10 * 1024 * 1024;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface JobStatus {
  status: Job['status'];
  total: number;
  completed: number;
  creditsUsed: number;
  expiresAt: string;
  data: unknown[];
  /** Skip of the next page, when there is one. */
  nextSkip?: number;
  /** Crawls only: why the answer may surprise (crawl-warnings.ts). */
  warning?: string;
}

/**
 * Crawl and batch jobs as the routes see them: start, status pages, cancel, errors, the ongoing
 * list. The pages themselves run in the job runner, on any instance.
 */
export function createJobService({
  stores,
  urlPolicy,
  donatedRoutes,
  log,
}: {
  stores: Stores;
  /** A crawl of a site only the team's donated browser may reach is not judged by the server's policy. */
  donatedRoutes?: DonatedRoutes;
  /** Where the jobs' state changes (started, completed, cancelled) are logged. */
  log?: Log;
  /** Refuses a crawl or webhook URL to a private or metadata address when the job is submitted. */
  urlPolicy?: UrlPolicy;
}) {
  /**
   * A refused URL is said now rather than as a failed page or a dropped event later. A name that
   * does not resolve yet passes: the site or receiver may come up, and every page task and every
   * delivery is checked again.
   */
  const checkUrl = async (url: string, what: string) => {
    if (urlPolicy === undefined) return;
    const verdict = await urlPolicy.check(new URL(url));
    if (!verdict.allowed && verdict.reason !== 'dns') {
      throw verdict.reason === 'not-a-host'
        ? errors.urlLooksWrong(`${what}: ${verdict.message}`)
        : errors.urlBlocked(`${what} refused: ${verdict.message}`);
    }
  };
  const checkWebhook = async (spec: JobSpec) => {
    if (spec.webhook !== undefined) await checkUrl(spec.webhook.url, 'Webhook URL');
  };

  /**
   * The team's crawl or batch job. Extract and llms.txt jobs live in the same store but are not
   * page-task jobs: on these routes they do not exist (reading one here would "finish" it).
   */
  const ownJob = async (teamId: string, id: string) => {
    const job = await stores.jobs.get(id);
    return job !== undefined && job.teamId === teamId && (job.kind === 'crawl' || job.kind === 'batch')
      ? job
      : undefined;
  };

  const takeIdempotencyKey = async (teamId: string, key: string | undefined, jobId: string) => {
    if (key === undefined) return;
    if (!UUID.test(key) || !(await stores.crawlNotes.claimIdempotencyKey(teamId, key, jobId)))
      throw errors.idempotencyKeyUsed();
  };

  /** Credits the team has left, or undefined when it has no allowance (docs/wire-contract.md §9). */
  const remainingCredits = async (teamId: string) => {
    const team = await stores.teams.get(teamId);
    if (team === undefined || team.creditAllowance === null) return undefined;
    return team.creditAllowance - team.creditsUsed;
  };

  const create = async (
    teamId: string,
    kind: JobKind,
    spec: JobSpec,
    pages: Array<{ url: string; key: string }>,
    idempotencyKey: string | undefined,
  ) => {
    await checkWebhook(spec);
    const id = randomUUID();
    await takeIdempotencyKey(teamId, idempotencyKey, id);
    await stores.teams.ensure({ id: teamId, name: teamId });
    const job = await stores.jobs.create({ _id: id, teamId, kind, request: spec });
    await enqueueWebhook({ outbox: stores.webhookOutbox, job, spec, event: 'started', key: 'started' });
    await stores.pageTasks.enqueueMany(
      pages.map((page) => ({ jobId: id, teamId, url: page.url, urlKey: page.key, depth: 0 })),
    );
    log?.info('job started', {
      jobId: id,
      teamId,
      kind,
      pages: pages.length,
      ...(spec.crawl === undefined ? {} : { url: urlForLog(spec.crawl.startUrl), limit: spec.crawl.limit }),
    });
    if (pages.length === 0) await finishIfDone(stores, id, log);
    return id;
  };

  /**
   * A page-URL start (only that path is crawled), or a completed crawl with no page because its
   * start page failed. The failed tasks are read only in that second case, never while it runs.
   */
  const crawlWarning = async (job: Job, completed: number) => {
    const spec = job.request as JobSpec;
    if (job.kind !== 'crawl' || spec.crawl === undefined) return undefined;
    const failure =
      job.status === 'completed' && completed === 0
        ? startFailureWarning({
            crawl: spec.crawl,
            failed: await stores.pageTasks.failedForJob(job._id),
            errorsPath: `/${spec.version}/crawl/${job._id}/errors`,
          })
        : undefined;
    const warnings = [failure, startPathWarning(spec.crawl)].filter((text) => text !== undefined);
    return warnings.length === 0 ? undefined : warnings.join(' ');
  };

  return {
    async startCrawl(teamId: string, spec: JobSpec, idempotencyKey?: string) {
      const crawl = spec.crawl!;
      // A cache-only crawl (lockdown, minAge) never reaches the site: a public name is not looked up.
      const cacheOnly = servesFromCacheOnly(spec.scrapeOptions);
      // Nor is a site only the team's donated browser may reach (an intranet): its pages go there
      // alone, and the server never resolves its name (every page is routed again when it runs).
      const donated = routesToDonated(await donatedRoutes?.routeFor(teamId, crawl.startUrl));
      if (!donated && !(cacheOnly && classifyHost(new URL(crawl.startUrl)).kind === 'needs-dns')) {
        await checkUrl(crawl.startUrl, 'Crawl URL');
      }
      try {
        compilePatterns(crawl.rules);
      } catch (err) {
        if (err instanceof PatternError) throw new TabhiveError('invalid-input', err.message);
        throw err;
      }
      // Firecrawl lowers a crawl's limit to what the team has left rather than refuse it.
      const remaining = await remainingCredits(teamId);
      if (remaining !== undefined && remaining <= 0) throw errors.insufficientCredits(teamId);
      const limited: JobSpec =
        remaining !== undefined && remaining < crawl.limit
          ? { ...spec, crawl: { ...crawl, limit: remaining }, options: { ...spec.options, limit: remaining } }
          : spec;
      const start = new URL(crawl.startUrl);
      return create(
        teamId,
        'crawl',
        limited,
        [{ url: start.href, key: urlKey(start, crawl.rules) }],
        idempotencyKey,
      );
    },

    /** Every URL runs, duplicates included (docs/wire-contract.md §5.1: N copies give `completed === N`). */
    async startBatch(teamId: string, spec: JobSpec, urls: readonly string[], idempotencyKey?: string) {
      const remaining = await remainingCredits(teamId);
      if (remaining !== undefined && remaining < Math.max(1, urls.length))
        throw errors.insufficientCredits(teamId);
      return create(
        teamId,
        'batch',
        spec,
        urls.map((url, index) => ({ url, key: `${index}` })),
        idempotencyKey,
      );
    },

    /**
     * `appendToId`: more URLs for a batch the team already has, run with that batch's stored
     * options (docs/wire-contract.md §5.1). A finished batch goes back to `scraping`. Undefined when there is
     * no such batch.
     */
    async appendToBatch(teamId: string, id: string, urls: readonly string[]) {
      const job = await ownJob(teamId, id);
      if (job === undefined || job.kind !== 'batch') return undefined;
      const round = randomUUID();
      await stores.pageTasks.enqueueMany(
        urls.map((url, index) => ({ jobId: id, teamId, url, urlKey: `${round}:${index}`, depth: 0 })),
      );
      if (urls.length > 0) await stores.jobs.transition(id, ['completed'], 'scraping');
      log?.info('job extended', { jobId: id, teamId, kind: job.kind, pages: urls.length });
      return id;
    },

    async status(teamId: string, id: string, { skip, limit }: { skip: number; limit?: number }) {
      let job = await ownJob(teamId, id);
      if (job === undefined) return undefined;
      const [total, completed] = await Promise.all([
        stores.pageTasks.countInStates(id, LIVE_STATES),
        stores.results.countForJob(id),
      ]);
      if (job.status === 'scraping' && completed >= total) {
        // Every page is done: finish the job now if the instance that ran the last one could not.
        await finishIfDone(stores, id, log);
        job = (await ownJob(teamId, id)) ?? job;
      }
      const stored = await stores.results.listForJob(id, { skip, limit: limit ?? DEFAULT_PAGE_SIZE });
      const data: unknown[] = [];
      let bytes = 0;
      for (const result of stored) {
        bytes += JSON.stringify(result.document).length;
        if (bytes > MAX_PAGE_BYTES && data.length > 0) break;
        data.push(result.document);
      }
      const expiresAt = new Date(job.expiresAt);
      expiresAt.setMilliseconds(0);
      const status: JobStatus = {
        status: job.status,
        total,
        completed,
        creditsUsed: job.creditsUsed,
        expiresAt: expiresAt.toISOString(),
        data,
      };
      // Firecrawl's rule (docs/wire-contract.md §7.4): a next page while total > skip + returned, also during the
      // crawl; but never after an empty page, which would send auto-paginating clients round in a
      // tight loop until the job ends.
      const reached = skip + data.length;
      if (data.length > 0 && Math.max(total, completed) > reached) status.nextSkip = reached;
      const warning = await crawlWarning(job, completed);
      if (warning !== undefined) status.warning = warning;
      return status;
    },

    /** Returns 'cancelled', or undefined when the team has no such job. */
    async cancel(teamId: string, id: string) {
      const job = await ownJob(teamId, id);
      if (job === undefined) return undefined;
      const cancelled = await stores.jobs.transition(id, ['scraping', 'completed'], 'cancelled');
      await stores.pageTasks.cancelJob(id);
      if (cancelled !== undefined) {
        log?.info('job cancelled', {
          jobId: id,
          teamId,
          kind: job.kind,
          pages: await stores.pageTasks.countInState(id, 'done'),
          creditsUsed: cancelled.creditsUsed,
        });
      }
      await finishIfDone(stores, id, log);
      return 'cancelled' as const;
    },

    async errors(teamId: string, id: string) {
      const job = await stores.jobs.get(id);
      // Another team's job is not found, as for status (docs/wire-contract.md §7.3): its existence is not revealed.
      if (job === undefined || job.teamId !== teamId) return { found: false as const };
      const failed = await stores.pageTasks.failedForJob(id);
      return {
        found: true as const,
        forbidden: false as const,
        errors: failed.flatMap((task) => {
          const reason = parseReason(task.error);
          if (reason.error === 'Parent job was cancelled') return [];
          return [
            {
              id: task._id,
              timestamp: new Date(task.updatedAt).toISOString(),
              url: task.url,
              ...(reason.code === undefined ? {} : { code: reason.code }),
              error: reason.error,
            },
          ];
        }),
        robotsBlocked: await stores.crawlNotes.robotsBlocked(id),
      };
    },

    async ongoing(teamId: string) {
      const jobs = await stores.jobs.listActive(teamId);
      return jobs
        .filter((job) => job.kind === 'crawl')
        .map((job) => {
          const spec = job.request as JobSpec;
          return {
            id: job._id,
            teamId: job.teamId,
            url: spec.crawl?.startUrl ?? '',
            created_at: new Date(job.createdAt).toISOString(),
            options: spec.options,
          };
        });
    },

    get: ownJob,
  };
}

function parseReason(text: string | undefined): { code?: string; error: string } {
  try {
    const parsed = JSON.parse(text ?? '') as { code?: unknown; error?: unknown };
    return {
      ...(typeof parsed.code === 'string' ? { code: parsed.code } : {}),
      error: typeof parsed.error === 'string' ? parsed.error : String(text),
    };
  } catch {
    return { error: text ?? 'Unknown error' };
  }
}

export type JobService = ReturnType<typeof createJobService>;
