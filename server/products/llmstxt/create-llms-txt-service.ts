import { randomUUID } from 'node:crypto';
import type { LlmsTxtStatus } from '../../../shared/api/responses/llmstxt-responses';
import type { LlmsTxtRequest } from '../../../shared/api/v1/llmstxt-request';
import { errors } from '../../platform/errors';
import { createInProcessJobs } from '../jobs';
import type { Stores, Job } from '../../platform/store';
import { ensureCreditsLeft } from '../../platform/teams';
import type { UrlPolicy } from '../../platform/url-policy';
import { LLMSTXT_HEARTBEAT_MS, LLMSTXT_STALL_MS } from './llms-txt-limits';
import type { LlmsTxtOutput, LlmsTxtSpec } from './llms-txt-spec';
import { type LlmsTxtDeps, runLlmsTxt } from './run-llms-txt';

export const LLMSTXT_STOPPED_ERROR = 'The server stopped while this llms.txt job ran; start it again.';

/** The status route's answer from the stored job (`processing` while it runs, in Firecrawl's words). */
export function llmsTxtStatusBody(job: Job): LlmsTxtStatus {
  const spec = job.request as LlmsTxtSpec;
  const output = job.output as LlmsTxtOutput | undefined;
  const expiresAt = new Date(job.expiresAt);
  expiresAt.setMilliseconds(0);
  return {
    success: true,
    status: job.status === 'scraping' ? 'processing' : job.status === 'completed' ? 'completed' : 'failed',
    ...(job.status === 'completed' && output !== undefined
      ? {
          data: {
            llmstxt: output.llmstxt,
            ...(spec.showFullText && output.llmsfulltxt !== undefined
              ? { llmsfulltxt: output.llmsfulltxt }
              : {}),
          },
        }
      : {}),
    ...(job.error === undefined ? {} : { error: job.error }),
    expiresAt: expiresAt.toISOString(),
    creditsUsed: Math.max(0, Math.round(job.creditsUsed)),
    ...(output !== undefined && output.warnings.length > 0 ? { warnings: output.warnings } : {}),
  };
}

/**
 * llms.txt jobs (`/v1/llmstxt`): checked and stored (kind `llmstxt`), run in the instance that
 * accepted them (runLlmsTxt), answered from the store by any instance.
 */
export function createLlmsTxtService({
  stores,
  urlPolicy,
  heartbeatMs = LLMSTXT_HEARTBEAT_MS,
  stallAfterMs = LLMSTXT_STALL_MS,
  ...deps
}: LlmsTxtDeps & {
  stores: Pick<Stores, 'jobs' | 'teams' | 'webhookOutbox'>;
  urlPolicy?: UrlPolicy | undefined;
  heartbeatMs?: number;
  stallAfterMs?: number;
}) {
  const jobs = createInProcessJobs<LlmsTxtSpec, LlmsTxtOutput>({
    kind: 'llmstxt',
    jobs: stores.jobs,
    webhookOutbox: stores.webhookOutbox,
    log: deps.log,
    heartbeatMs,
    stallAfterMs,
    stoppedError: LLMSTXT_STOPPED_ERROR,
  });

  return {
    /** Checks the site URL and the team's credits, stores the job and starts it here. */
    async start(teamId: string, request: LlmsTxtRequest): Promise<{ id: string }> {
      await ensureCreditsLeft(stores.teams, teamId);
      const target = new URL(request.url.url);
      if (urlPolicy !== undefined) {
        const verdict = await urlPolicy.check(target);
        if (!verdict.allowed) {
          throw verdict.reason === 'dns'
            ? errors.dnsResolution(target.hostname)
            : errors.urlBlocked(verdict.message);
        }
      }
      const spec: LlmsTxtSpec = {
        url: target.href,
        maxUrls: request.maxUrls,
        showFullText: request.showFullText,
        cache: request.cache,
      };
      const id = randomUUID();
      await stores.teams.ensure({ id: teamId, name: teamId });
      const job = await stores.jobs.create({ _id: id, teamId, kind: 'llmstxt', request: spec });
      jobs.launch(job, spec, (run) => runLlmsTxt(spec, run, deps));
      return { id };
    },

    /** The job's status for its team; undefined for another team's job, another kind, or none. */
    async status(teamId: string, id: string): Promise<LlmsTxtStatus | undefined> {
      const job = await jobs.read(teamId, id);
      return job === undefined ? undefined : llmsTxtStatusBody(job);
    },

    /** Ends the jobs running here as failed (the server is stopping). */
    stop: () => jobs.stop(),
  };
}

export type LlmsTxtService = ReturnType<typeof createLlmsTxtService>;
