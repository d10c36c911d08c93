import { randomUUID } from 'node:crypto';
import { insertIfAbsent, type Collection, type Database, type StoredDocument } from '../database';

export type PageTaskState = 'queued' | 'leased' | 'done' | 'failed' | 'cancelled';

export interface PageTask extends StoredDocument {
  jobId: string;
  teamId: string;
  url: string;
  /** The URL as the job's de-duplication sees it; unique per job. */
  urlKey: string;
  depth: number;
  state: PageTaskState;
  attempts: number;
  /** When a queued task may be claimed (retries back off by moving it into the future). */
  availableAt: Date;
  /** Fencing token of the current lease: only its holder may heartbeat, complete or fail the task. */
  leaseToken?: string;
  leaseOwner?: string;
  leaseExpiresAt?: Date;
  error?: string;
  createdAt: Date;
  updatedAt: Date;
}

export type NewPageTask = Pick<PageTask, 'jobId' | 'teamId' | 'url' | 'urlKey' | 'depth'>;

/**
 * Tasks written per store call by enqueueMany: one round trip (one file append) each, and short
 * enough that the embedded store's synchronous step and a MongoDB batch stay well below a second.
 */
const ENQUEUE_CHUNK = 1_000;

/**
 * Page tasks of crawl and batch jobs, claimed with leases. Every state change is one conditional
 * update, so a task cannot be claimed twice, and a lease that expired (its browser or server died)
 * makes the task claimable again: nothing is lost and nothing waits forever.
 */
export function createPageTaskStore(database: Database) {
  const tasks: Collection<PageTask> = database.collection('page_tasks');

  const holding = (id: string, leaseToken: string) => ({ _id: id, state: 'leased', leaseToken });
  const newTask = (task: NewPageTask, now: Date): PageTask => ({
    ...task,
    _id: randomUUID(),
    state: 'queued',
    attempts: 0,
    availableAt: now,
    createdAt: now,
    updatedAt: now,
  });

  return {
    async ensureIndexes() {
      await tasks.createIndex({ name: 'job_urlKey', keys: { jobId: 1, urlKey: 1 }, unique: true });
      await tasks.createIndex({ name: 'claim', keys: { state: 1, availableAt: 1 } });
      await tasks.createIndex({ name: 'lease', keys: { state: 1, leaseExpiresAt: 1 } });
      await tasks.createIndex({ name: 'team_state', keys: { teamId: 1, state: 1 } });
      // A job's tasks are counted for every page (its limit, its end). The embedded store narrows
      // by single-field indexes only; a task keeps its place in this one as its state changes.
      await tasks.createIndex({ name: 'job', keys: { jobId: 1 } });
      // Claims look among queued or leased tasks only; done ones pile up as jobs run.
      await tasks.createIndex({ name: 'state', keys: { state: 1 } });
    },

    /** Adds a task unless the job already has one for this URL; returns whether it was added. */
    async enqueue(task: NewPageTask, now = new Date()): Promise<boolean> {
      return insertIfAbsent(tasks, newTask(task, now));
    },

    /**
     * Adds tasks, each unless its job already has one for its URL, in chunks rather than one write
     * per task (a batch may hold tens of thousands of URLs); returns how many were added.
     */
    async enqueueMany(many: readonly NewPageTask[], now = new Date()): Promise<number> {
      let added = 0;
      for (let start = 0; start < many.length; start += ENQUEUE_CHUNK) {
        const chunk = many.slice(start, start + ENQUEUE_CHUNK).map((task) => newTask(task, now));
        added += (await tasks.insertManyIfAbsent(chunk)).inserted;
      }
      return added;
    },

    /**
     * Leases a claimable task to `owner`: one whose lease expired (its server or browser died)
     * first, else the queued task that has been due longest. `jobIds` limits the claim to some
     * jobs (e.g. those with free concurrency). Two queries on a task state each, rather than one
     * on either, so that a store can narrow them by state instead of reading every task.
     */
    async claimNext({
      owner,
      leaseMs,
      jobIds,
      now = new Date(),
    }: {
      owner: string;
      leaseMs: number;
      jobIds?: readonly string[];
      now?: Date;
    }) {
      const jobFilter = jobIds === undefined ? {} : { jobId: { $in: [...jobIds] } };
      const lease = {
        $set: {
          state: 'leased',
          leaseOwner: owner,
          leaseToken: randomUUID(),
          leaseExpiresAt: new Date(now.getTime() + leaseMs),
          updatedAt: now,
        },
        $inc: { attempts: 1 },
      };
      return (
        (await tasks.findOneAndUpdate(
          { ...jobFilter, state: 'leased', leaseExpiresAt: { $lt: now } },
          lease,
          { sort: { availableAt: 1 } },
        )) ??
        (await tasks.findOneAndUpdate({ ...jobFilter, state: 'queued', availableAt: { $lte: now } }, lease, {
          sort: { availableAt: 1 },
        }))
      );
    },

    /** Extends a lease; false when the token no longer holds it. */
    async heartbeat(id: string, leaseToken: string, leaseMs: number, now = new Date()) {
      const { matched } = await tasks.updateOne(holding(id, leaseToken), {
        $set: { leaseExpiresAt: new Date(now.getTime() + leaseMs), updatedAt: now },
      });
      return matched === 1;
    },

    /** Marks the task done; false (and no change) when the token no longer holds the lease. */
    async complete(id: string, leaseToken: string, now = new Date()) {
      const { matched } = await tasks.updateOne(holding(id, leaseToken), {
        $set: { state: 'done', updatedAt: now },
        $unset: { leaseToken: true, leaseOwner: true, leaseExpiresAt: true },
      });
      return matched === 1;
    },

    /**
     * Fails the task for good, or puts it back in the queue at `retryAt`. `notRun`: the claim
     * never ran the page (it waited for a free tab or its limits), so it is not an attempt.
     */
    async fail(
      id: string,
      leaseToken: string,
      error: string,
      { retryAt, notRun = false, now = new Date() }: { retryAt?: Date; notRun?: boolean; now?: Date } = {},
    ) {
      const { matched } = await tasks.updateOne(holding(id, leaseToken), {
        $set:
          retryAt === undefined
            ? { state: 'failed', error, updatedAt: now }
            : { state: 'queued', error, availableAt: retryAt, updatedAt: now },
        $unset: { leaseToken: true, leaseOwner: true, leaseExpiresAt: true },
        ...(notRun ? { $inc: { attempts: -1 } } : {}),
      });
      return matched === 1;
    },

    /** Cancels what has not run yet; leased tasks finish or expire on their own. */
    async cancelJob(jobId: string, now = new Date()) {
      return (
        await tasks.updateMany({ jobId, state: 'queued' }, { $set: { state: 'cancelled', updatedAt: now } })
      ).matched;
    },

    countInState: (jobId: string, state: PageTaskState) => tasks.countDocuments({ jobId, state }),
    /** Tasks of every job in a state, cluster-wide (metrics). */
    countAllInState: (state: PageTaskState) => tasks.countDocuments({ state }),
    /**
     * A job's tasks in any of `states`, in one query: a task moving between two of them (claimed,
     * done, put back for a retry) is counted once, never missed between two counts.
     */
    countInStates: (jobId: string, states: readonly PageTaskState[]) =>
      tasks.countDocuments({ jobId, state: { $in: [...states] } }),
    /** Pages of all the team's jobs running now, on any instance (live leases only). */
    /** The team's pages waiting for a browser (queue status). */
    countQueuedForTeam: (teamId: string) => tasks.countDocuments({ teamId, state: 'queued' }),
    countRunningForTeam: (teamId: string, now = new Date()) =>
      tasks.countDocuments({ teamId, state: 'leased', leaseExpiresAt: { $gt: now } }),
    get: (id: string) => tasks.findOne({ _id: id }),
    failedForJob: (jobId: string) => tasks.find({ jobId, state: 'failed' }, { sort: { updatedAt: 1 } }),
  };
}

export type PageTaskStore = ReturnType<typeof createPageTaskStore>;
