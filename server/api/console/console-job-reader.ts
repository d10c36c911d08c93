import type { Database, Filter, Stores, Job, PageTask } from '../../platform/store';
import { LIVE_STATES, finishIfDone, type JobSpec } from '../../products/jobs';

/** Jobs per list and pages per job page the console shows at most. */
export const MAX_LISTED_JOBS = 100;
export const MAX_LISTED_PAGES = 1_000;

export interface ConsoleJob {
  id: string;
  teamId: string;
  kind: Job['kind'];
  status: Job['status'];
  /** The crawl's start URL or the batch's first URL. */
  url: string | null;
  total: number;
  completed: number;
  failed: number;
  creditsUsed: number;
  createdAt: string;
  updatedAt: string;
  error: string | null;
}

export interface ConsolePage {
  id: string;
  url: string;
  state: PageTask['state'];
  attempts: number;
  error: string | null;
  code: string | null;
  updatedAt: string;
}

const startUrl = (job: Job): string | null => {
  const request = job.request as Partial<JobSpec> & { urls?: unknown; url?: unknown };
  if (request.crawl?.startUrl !== undefined) return request.crawl.startUrl;
  if (Array.isArray(request.urls) && typeof request.urls[0] === 'string') return request.urls[0];
  return typeof request.url === 'string' ? request.url : null;
};

const reason = (text: string | undefined): { error: string | null; code: string | null } => {
  if (text === undefined) return { error: null, code: null };
  try {
    const parsed = JSON.parse(text) as { code?: unknown; error?: unknown };
    return {
      error: typeof parsed.error === 'string' ? parsed.error : text,
      code: typeof parsed.code === 'string' ? parsed.code : null,
    };
  } catch {
    return { error: text, code: null };
  }
};

/**
 * What the console reads of jobs across their states: the job store lists only running jobs, so
 * the recent ones and a job's page tasks are read here, read-only, with the portable find/sort
 * the stores use. Counts are the status route's (tasks alive, results stored, tasks failed).
 */
export function createConsoleJobReader({ database, stores }: { database: Database; stores: Stores }) {
  const jobs = database.collection<Job>('jobs');
  const tasks = database.collection<PageTask>('page_tasks');

  const summarize = async (job: Job): Promise<ConsoleJob> => {
    const pageJob = job.kind === 'crawl' || job.kind === 'batch';
    const [total, completed, failed] = pageJob
      ? await Promise.all([
          stores.pageTasks.countInStates(job._id, LIVE_STATES),
          stores.results.countForJob(job._id),
          stores.pageTasks.countInState(job._id, 'failed'),
        ])
      : [job.total, job.completed, job.failed];
    return {
      id: job._id,
      teamId: job.teamId,
      kind: job.kind,
      status: job.status,
      // A batch keeps its URLs as page tasks only: its first one names it.
      url:
        startUrl(job) ??
        (pageJob
          ? ((await tasks.findOne({ jobId: job._id }, { sort: { createdAt: 1 } }))?.url ?? null)
          : null),
      total,
      completed,
      failed,
      creditsUsed: job.creditsUsed,
      createdAt: new Date(job.createdAt).toISOString(),
      updatedAt: new Date(job.updatedAt).toISOString(),
      error: job.error ?? null,
    };
  };

  return {
    /** Newest first; `teamId` undefined lists every team's (admin). */
    async list({ teamId, limit }: { teamId: string | undefined; limit: number }): Promise<ConsoleJob[]> {
      const filter: Filter = teamId === undefined ? {} : { teamId };
      const found = await jobs.find(filter, {
        sort: { createdAt: -1 },
        limit: Math.min(limit, MAX_LISTED_JOBS),
      });
      return Promise.all(found.map(summarize));
    },

    async get(id: string): Promise<Job | undefined> {
      return jobs.findOne({ _id: id });
    },

    /** A job's summary; a job whose last page is done is finished first, as the status route does. */
    async summary(job: Job): Promise<ConsoleJob> {
      if (job.status === 'scraping' && (job.kind === 'crawl' || job.kind === 'batch')) {
        const [total, completed] = await Promise.all([
          stores.pageTasks.countInStates(job._id, LIVE_STATES),
          stores.results.countForJob(job._id),
        ]);
        if (total > 0 && completed >= total) await finishIfDone(stores, job._id);
        return summarize((await jobs.findOne({ _id: job._id })) ?? job);
      }
      return summarize(job);
    },

    async pages(jobId: string): Promise<ConsolePage[]> {
      const found = await tasks.find({ jobId }, { sort: { createdAt: 1 }, limit: MAX_LISTED_PAGES });
      return found.map((task) => ({
        id: task._id,
        url: task.url,
        state: task.state,
        attempts: task.attempts,
        ...reason(task.error),
        updatedAt: new Date(task.updatedAt).toISOString(),
      }));
    },

    /** The job's result documents in order, a page at a time. */
    async documents(jobId: string, skip: number, limit: number): Promise<unknown[]> {
      return (await stores.results.listForJob(jobId, { skip, limit })).map((result) => result.document);
    },

    /** Failed pages in the last `sinceMs`, for the team or every team. */
    async recentFailures(teamId: string | undefined, since: Date): Promise<number> {
      return tasks.countDocuments({
        state: 'failed',
        updatedAt: { $gte: since },
        ...(teamId === undefined ? {} : { teamId }),
      });
    },

    async queued(teamId: string | undefined): Promise<number> {
      return teamId === undefined
        ? stores.pageTasks.countAllInState('queued')
        : stores.pageTasks.countQueuedForTeam(teamId);
    },
  };
}

export type ConsoleJobReader = ReturnType<typeof createConsoleJobReader>;
