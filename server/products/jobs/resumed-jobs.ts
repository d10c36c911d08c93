import type { Log } from '../../platform/log';
import type { Job, Stores } from '../../platform/store';

/**
 * The line an operator looks for after a restart: which unfinished crawls and batches this runner
 * took up again, once per job, when it first runs one of their pages. A job begun before the
 * runner started was left by an earlier process (or, in a cluster, is shared with another
 * instance); its pages done and left are as the store has them at that moment.
 */
export function createResumedJobsLog({
  stores,
  log,
  now = Date.now,
}: {
  stores: Stores;
  log: Log;
  now?: () => number;
}) {
  let startedAt: number | undefined;
  /** Jobs begun before the start that were reported: a finite set, the work left at the start. */
  const reported = new Set<string>();
  return {
    /** From now on, jobs begun earlier count as resumed. */
    start() {
      startedAt = now();
    },
    /** Called for each page the runner is about to run; logs its job the first time only. */
    async pageOf(job: Job): Promise<void> {
      if (startedAt === undefined || new Date(job.createdAt).getTime() >= startedAt) return;
      if (reported.has(job._id)) return;
      reported.add(job._id);
      const pagesLeft = await stores.pageTasks.countInStates(job._id, ['queued', 'leased']);
      log.info('job resumed', {
        jobId: job._id,
        teamId: job.teamId,
        kind: job.kind,
        pagesDone: job.completed,
        pagesFailed: job.failed,
        pagesLeft,
        startedAt: new Date(job.createdAt).toISOString(),
      });
    },
  };
}
