import type { Collection, Database, StoredDocument } from '../database';
import { usageAttribution } from './usage-attribution';
import { RESULT_RETENTION_MS } from './result-store';

/**
 * `crawl` and `batch` run page tasks from the store (create-job-runner.ts); `extract` and `llmstxt`
 * run in the instance that accepted them and keep their answer in `output`.
 */
export type JobKind = 'crawl' | 'batch' | 'extract' | 'llmstxt' | 'agent' | 'deepresearch';
export type JobStatus = 'scraping' | 'completed' | 'failed' | 'cancelled';

export interface Job extends StoredDocument {
  teamId: string;
  kind: JobKind;
  status: JobStatus;
  /** The request as accepted (validated JSON), so any instance can carry the job on. */
  request: unknown;
  total: number;
  completed: number;
  failed: number;
  creditsUsed: number;
  /** What an extract or llms.txt job answered, set when it ends. */
  output?: unknown;
  /** Why the job failed, for the status route. */
  error?: string;
  /** The masked API key that started it (usage-attribution.ts): its pages are booked under it. */
  apiKey?: string;
  createdAt: Date;
  updatedAt: Date;
  expiresAt: Date;
}

export type NewJob = Pick<Job, '_id' | 'teamId' | 'kind' | 'request'> & Partial<Pick<Job, 'apiKey'>>;

/** Crawl and batch-scrape jobs: their state, counters and lifetime. */
export function createJobStore(database: Database) {
  const jobs: Collection<Job> = database.collection('jobs');

  return {
    async ensureIndexes() {
      await jobs.createIndex({ name: 'team_status', keys: { teamId: 1, status: 1, createdAt: -1 } });
      await jobs.createIndex({ name: 'expiresAt_ttl', keys: { expiresAt: 1 }, expireAfterSeconds: 0 });
    },

    async create(job: NewJob, now = new Date()): Promise<Job> {
      const apiKey = job.apiKey ?? usageAttribution()?.apiKey;
      const stored: Job = {
        ...job,
        ...(apiKey === undefined ? {} : { apiKey }),
        status: 'scraping',
        total: 0,
        completed: 0,
        failed: 0,
        creditsUsed: 0,
        createdAt: now,
        updatedAt: now,
        expiresAt: new Date(now.getTime() + RESULT_RETENTION_MS),
      };
      await jobs.insertOne(stored);
      return stored;
    },

    get: (id: string) => jobs.findOne({ _id: id }),

    /** Moves a job to `to` only if it is in one of `from`; returns the job after the change, or undefined. */
    transition(id: string, from: readonly JobStatus[], to: JobStatus, now = new Date()) {
      return jobs.findOneAndUpdate(
        { _id: id, status: { $in: [...from] } },
        { $set: { status: to, updatedAt: now } },
      );
    },

    /** Adds to the counters in one atomic update. */
    count(
      id: string,
      delta: { total?: number; completed?: number; failed?: number; creditsUsed?: number },
      now = new Date(),
    ) {
      const $inc = Object.fromEntries(
        Object.entries(delta).filter(([, value]) => value !== undefined && value !== 0),
      );
      return jobs.findOneAndUpdate({ _id: id }, { $inc, $set: { updatedAt: now } });
    },

    /**
     * Sets `creditsUsed` to a known total. Unlike `count`, running it twice (two instances
     * finishing the same job) gives the same answer.
     */
    setCreditsUsed(id: string, creditsUsed: number, now = new Date()) {
      return jobs.findOneAndUpdate({ _id: id }, { $set: { creditsUsed, updatedAt: now } });
    },

    /**
     * Ends a running job (`scraping`) with its answer, its error and the credits it took, in one
     * update; returns the job after the change, or undefined when it had already ended (cancelled).
     */
    settle(
      id: string,
      outcome: {
        status: Exclude<JobStatus, 'scraping'>;
        output?: unknown;
        error?: string;
        creditsUsed: number;
      },
      now = new Date(),
    ) {
      return jobs.findOneAndUpdate(
        { _id: id, status: 'scraping' },
        {
          $set: {
            status: outcome.status,
            creditsUsed: outcome.creditsUsed,
            updatedAt: now,
            ...(outcome.output === undefined ? {} : { output: outcome.output }),
            ...(outcome.error === undefined ? {} : { error: outcome.error }),
          },
        },
      );
    },

    /** The team's jobs that are still running, newest first. */
    listActive: (teamId: string) => jobs.find({ teamId, status: 'scraping' }, { sort: { createdAt: -1 } }),

    async purgeExpired(now = new Date()) {
      return (await jobs.deleteMany({ expiresAt: { $lt: now } })).deleted;
    },
  };
}

export type JobStore = ReturnType<typeof createJobStore>;
