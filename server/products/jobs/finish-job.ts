import type { Log } from '../../platform/log';
import type { Stores, Job } from '../../platform/store';
import { enqueueWebhook } from './enqueue-webhook';
import type { JobSpec } from './job-spec';

/** Tasks that count against a crawl's `limit` and towards a job's `total`. */
export const LIVE_STATES = ['queued', 'leased', 'done'] as const;

/**
 * Finishes a job when nothing of it is queued or running: `scraping` becomes `completed`, and
 * the `completed` webhook goes out (also for a cancelled job, once its last page settled, as
 * Firecrawl does). Safe to call any number of times from any instance.
 */
export async function finishIfDone(stores: Stores, jobId: string, log?: Log): Promise<void> {
  const job = await stores.jobs.get(jobId);
  if (job === undefined || job.status === 'completed' || job.status === 'failed') return;
  // A cancelled job waits for its leased pages only. One count, so that a page put back for a
  // retry (leased, then queued) is never missed between a count of each state.
  const unsettled = await stores.pageTasks.countInStates(
    jobId,
    job.status === 'scraping' ? ['queued', 'leased'] : ['leased'],
  );
  if (unsettled > 0) return;
  if (job.status === 'scraping') {
    // Nothing is queued or leased, so the page sum is final: set it before the status says
    // `completed`, so that nobody reads a completed job with a stale total.
    await reconcileCredits(stores, jobId);
    const completed = await stores.jobs.transition(jobId, ['scraping'], 'completed');
    if (completed === undefined) return;
    if (log !== undefined) await logCompleted(stores, completed, log);
  }
  await enqueueWebhook({
    outbox: stores.webhookOutbox,
    job,
    spec: job.request as JobSpec,
    event: 'completed',
    key: 'completed',
  });
}

/** The one line of a crawl or batch that completed: its pages and what they cost. */
async function logCompleted(stores: Stores, job: Job, log: Log): Promise<void> {
  const [pages, failedPages] = await Promise.all([
    stores.pageTasks.countInState(job._id, 'done'),
    stores.pageTasks.countInState(job._id, 'failed'),
  ]).catch(() => [undefined, undefined]);
  log.info('job completed', {
    jobId: job._id,
    teamId: job.teamId,
    kind: job.kind,
    pages,
    failedPages,
    creditsUsed: job.creditsUsed,
    durationMs: Date.now() - new Date(job.createdAt).getTime(),
  });
}

const RECONCILE_PAGE = 500;

/**
 * Sets the job's `creditsUsed` to the sum over its stored pages. The running sum is kept with
 * `$inc`, which FerretDB 1.x does not make atomic across instances; the pages (one per task) and
 * the ledger (one charge per task) are exact, so the finished job is made to agree with them.
 */
async function reconcileCredits(stores: Stores, jobId: string): Promise<void> {
  let sum = 0;
  for (let skip = 0; ; skip += RECONCILE_PAGE) {
    const page = await stores.results.listForJob(jobId, { skip, limit: RECONCILE_PAGE });
    for (const result of page) {
      const credits = (result.document as { metadata?: { creditsUsed?: unknown } }).metadata?.creditsUsed;
      sum += typeof credits === 'number' ? credits : 0;
    }
    if (page.length < RECONCILE_PAGE) break;
  }
  // A `$set`, not a difference added with `$inc`: on FerretDB the `completed` transition is not
  // atomic across instances either, so two of them may both get here, and both must agree.
  await stores.jobs.setCreditsUsed(jobId, sum);
}
