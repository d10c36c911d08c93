import type { WebhookV2 } from '../../../shared/api/v2/crawl-webhook';
import type { Log } from '../../platform/log';
import {
  StoreUnavailableError,
  type Job,
  type JobKind,
  type JobStore,
  type WebhookOutboxStore,
} from '../../platform/store';
import { enqueueWebhook } from './enqueue-webhook';

/** The work was stopped (the server is stopping, or another instance ended the job): no outcome. */
export class JobAborted extends Error {
  override name = 'JobAborted';
}

/** The work failed for a reason its caller should read: the message becomes the job's `error`. */
export class JobFailure extends Error {
  override name = 'JobFailure';
}

/** What a job's work is given: the signal that stops it, and where it reports the credits booked so far. */
export interface JobRun {
  teamId: string;
  signal: AbortSignal;
  onCredits(total: number): void;
}

/** Ending a finished job during a database outage is tried this often, this far apart. */
const SETTLE_ATTEMPTS = 5;
const SETTLE_RETRY_MS = 2_000;

export type JobOutcome<Output> =
  | { status: 'completed'; output: Output; creditsUsed: number }
  | { status: 'failed'; error: string; creditsUsed: number };

/**
 * Jobs that run in the instance that accepted them (extract, llms.txt), kept in the job store so
 * any instance can answer their status. While one runs, its instance writes the job's `updatedAt`
 * (and the credits so far) every `heartbeatMs`; a job that no instance runs and that has not been
 * written for `stallAfterMs` lost its instance (a crash, a kill), and the next status read ends it
 * as failed, saying so. Each job ends once: the store's conditional `settle`, so an instance that
 * comes back cannot overwrite what another decided; a job whose answer is ready during a database
 * outage tries again for a while. Webhooks (`<kind>.completed` / `.failed`) follow the ending.
 */
export function createInProcessJobs<Spec, Output>({
  kind,
  jobs,
  webhookOutbox,
  log,
  heartbeatMs,
  stallAfterMs,
  stoppedError,
  stalledError = (seconds) =>
    `The server running this job stopped while it ran (no progress for ${seconds} s); start it again.`,
  webhookOf = () => undefined,
  webhookData = () => [],
}: {
  kind: JobKind;
  jobs: JobStore;
  webhookOutbox: WebhookOutboxStore;
  log: Log;
  heartbeatMs: number;
  stallAfterMs: number;
  /** The `error` of a job ended because its server is stopping. */
  stoppedError: string;
  /** The `error` of a job that lost its instance, given the quiet time (`stallAfterMs`) in seconds. */
  stalledError?: (seconds: number) => string;
  /** Where the job's events go, if anywhere. */
  webhookOf?: (spec: Spec) => WebhookV2 | undefined;
  /** The `data` of the completed event's webhook. */
  webhookData?: (output: Output, spec: Spec) => unknown[];
}) {
  const running = new Map<string, { job: Job; spec: Spec; controller: AbortController; credits: number }>();
  const stalled = stalledError(Math.round(stallAfterMs / 1000));

  /** Ends the job once and sends its last webhook; undefined when it had ended already. */
  const settle = async (job: Job, spec: Spec, outcome: JobOutcome<Output>): Promise<Job | undefined> => {
    const settled = await jobs.settle(job._id, outcome);
    if (settled === undefined) return undefined;
    const fields = {
      jobId: job._id,
      teamId: job.teamId,
      kind,
      creditsUsed: outcome.creditsUsed,
      durationMs: Date.now() - new Date(job.createdAt).getTime(),
    };
    if (outcome.status === 'completed') log.info('job completed', fields);
    else log.warn('job failed', { ...fields, error: outcome.error });
    await enqueueWebhook({
      outbox: webhookOutbox,
      job,
      spec: { webhook: webhookOf(spec) },
      event: outcome.status,
      key: outcome.status,
      ...(outcome.status === 'completed'
        ? { data: webhookData(outcome.output, spec) }
        : { error: outcome.error }),
    });
    return settled;
  };

  return {
    /** Runs `work` for a stored job here, keeping the job alive in the store until it settles. */
    launch(job: Job, spec: Spec, work: (run: JobRun) => Promise<{ output: Output; creditsUsed: number }>) {
      const controller = new AbortController();
      const entry = { job, spec, controller, credits: 0 };
      running.set(job._id, entry);
      log.info('job started', { jobId: job._id, teamId: job.teamId, kind });
      const heartbeat = setInterval(() => {
        jobs
          .setCreditsUsed(job._id, entry.credits)
          .then((after) => {
            // Ended elsewhere (a status read judged it stalled during a long outage): stop working on it.
            if (after !== undefined && after.status !== 'scraping') controller.abort();
          })
          .catch((err: unknown) =>
            log.warn(`${kind} heartbeat failed`, { jobId: job._id, error: String(err) }),
          );
      }, heartbeatMs);
      heartbeat.unref();
      const finish = async (outcome: JobOutcome<Output>) => {
        // A database outage when the answer is ready: try again for a while before giving up on it.
        for (let attempt = 1; !controller.signal.aborted; attempt++) {
          try {
            await settle(job, spec, outcome);
            return;
          } catch (err) {
            if (!(err instanceof StoreUnavailableError) || attempt >= SETTLE_ATTEMPTS) throw err;
            await new Promise((resolve) => setTimeout(resolve, SETTLE_RETRY_MS));
          }
        }
      };
      void work({
        teamId: job.teamId,
        signal: controller.signal,
        onCredits: (credits) => (entry.credits = credits),
      })
        .then(({ output, creditsUsed }) => finish({ status: 'completed', output, creditsUsed }))
        .catch((err: unknown) => {
          if (err instanceof JobAborted) return;
          if (!(err instanceof JobFailure)) {
            log.error(`${kind} job failed unexpectedly`, { jobId: job._id, error: String(err) });
          }
          const message = err instanceof JobFailure ? err.message : `The job failed: ${String(err)}`;
          return finish({ status: 'failed', error: message, creditsUsed: entry.credits });
        })
        .catch((err: unknown) =>
          log.error(`could not end a ${kind} job`, { jobId: job._id, error: String(err) }),
        )
        .finally(() => {
          clearInterval(heartbeat);
          running.delete(job._id);
        });
    },

    /**
     * The team's job of this kind, as stored; undefined for another team's job, another kind, or
     * none. A job that lost its instance is ended as failed first; a job running here shows the
     * credits booked so far (fresher than the ones the heartbeat last wrote).
     */
    async read(teamId: string, id: string): Promise<Job | undefined> {
      const job = await jobs.get(id);
      if (job === undefined || job.teamId !== teamId || job.kind !== kind) return undefined;
      if (job.status !== 'scraping') return job;
      const here = running.get(id);
      if (here !== undefined) return { ...job, creditsUsed: here.credits };
      if (Date.now() - new Date(job.updatedAt).getTime() <= stallAfterMs) return job;
      const spec = job.request as Spec;
      const ended = await settle(job, spec, {
        status: 'failed',
        error: stalled,
        creditsUsed: job.creditsUsed,
      });
      return ended ?? (await jobs.get(id)) ?? job;
    },

    /** Ends the jobs running here as failed (the server is stopping). */
    async stop(): Promise<void> {
      await Promise.all(
        [...running.values()].map(async ({ job, spec, controller, credits }) => {
          controller.abort();
          await settle(job, spec, { status: 'failed', error: stoppedError, creditsUsed: credits }).catch(
            (err: unknown) => log.warn(`could not end a ${kind} job`, { jobId: job._id, error: String(err) }),
          );
        }),
      );
    },
  };
}

export type InProcessJobs<Spec, Output> = ReturnType<typeof createInProcessJobs<Spec, Output>>;
