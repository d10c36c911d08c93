import type { Job } from '../../platform/store';
import type { AgentOutput, AgentSpec } from './agent-spec';

export const CANCELLED_ERROR = 'The agent run was cancelled.';

/** An ISO time without milliseconds, as Firecrawl writes `expiresAt`. */
export const isoSeconds = (value: Date | string) => {
  const date = new Date(value);
  date.setMilliseconds(0);
  return date.toISOString();
};

/**
 * The wire status: firecrawl-py's AgentResponse accepts only processing, completed and failed, so
 * a cancelled run reads `failed`, with `stopReason: "cancelled"` saying why.
 */
export function wireStatus(job: Job): 'processing' | 'completed' | 'failed' {
  return job.status === 'scraping' ? 'processing' : job.status === 'completed' ? 'completed' : 'failed';
}

const credits = (job: Job) => Math.max(0, Math.round(job.creditsUsed));

/** `GET /v2/agent/:id`: the run's state, and its answer once completed. */
export function agentStatusBody(job: Job) {
  const spec = job.request as AgentSpec;
  const output = job.output as AgentOutput | undefined;
  const done = job.status === 'completed' && output !== undefined;
  const stopReason = job.status === 'cancelled' ? 'cancelled' : output?.stopReason;
  return {
    success: true,
    id: job._id,
    status: wireStatus(job),
    ...(done && spec.mode === 'extract' ? { data: output.data } : {}),
    ...(done && output.message !== undefined ? { message: output.message } : {}),
    ...(job.status === 'cancelled'
      ? { error: CANCELLED_ERROR }
      : job.error === undefined
        ? {}
        : { error: job.error }),
    ...(stopReason === undefined ? {} : { stopReason }),
    model: spec.model,
    ...(spec.effort === undefined ? {} : { effort: spec.effort }),
    mode: spec.mode,
    expiresAt: isoSeconds(job.expiresAt),
    creditsUsed: credits(job),
    threadId: job._id,
    threadTurn: 1,
    ...(output !== undefined && output.warnings.length > 0 ? { warnings: output.warnings } : {}),
  };
}

/** What a caller would recognise a run by in a list: its first URL's host, or its prompt's start. */
function targetHint(spec: AgentSpec): string {
  const first = spec.urls[0];
  if (first !== undefined) return new URL(first).host;
  return spec.prompt.length > 80 ? `${spec.prompt.slice(0, 80)}…` : spec.prompt;
}

/** One entry of `GET /v2/agent` (firecrawl-js AgentListItem, firecrawl-py AgentListItem). */
export function agentListItem(job: Job) {
  const spec = job.request as AgentSpec;
  return {
    id: job._id,
    createdAt: new Date(job.createdAt).toISOString(),
    targetHint: targetHint(spec),
    origin: spec.origin,
    ...(spec.integration === undefined ? {} : { integration: spec.integration }),
    settings: { hidden: false, starred: false },
    status: wireStatus(job),
    options: {
      ...(spec.urls.length === 0 ? {} : { urls: spec.urls }),
      prompt: spec.prompt,
      ...(spec.schema === undefined ? {} : { schema: spec.schema }),
      model: spec.requestedModel ?? spec.model,
      ...(spec.effort === undefined ? {} : { effort: spec.effort }),
    },
  };
}

/** A thread's run status, in the thread's own vocabulary. */
function runStatus(job: Job): string {
  if (job.status === 'scraping') return 'processing';
  if (job.status === 'cancelled') return 'cancelled';
  if (job.status === 'failed') return 'failed';
  return (job.output as AgentOutput | undefined)?.stopReason === 'credit_limit_reached'
    ? 'credit_limit_reached'
    : 'succeeded';
}

/** `GET /v2/agent/threads/:id`: every Tabhive run is a thread of one turn, named by the run's id. */
export function agentThreadBody(job: Job, includeData: boolean) {
  const spec = job.request as AgentSpec;
  const output = job.output as AgentOutput | undefined;
  const ended = job.status !== 'scraping';
  return {
    success: true,
    thread: {
      id: job._id,
      createdAt: new Date(job.createdAt).toISOString(),
      updatedAt: new Date(job.updatedAt).toISOString(),
      status: ended ? 'idle' : 'running',
      runs: [
        {
          id: job._id,
          turn: 1,
          mode: spec.mode,
          prompt: spec.prompt,
          ...(spec.urls.length === 0 ? {} : { urls: spec.urls }),
          ...(spec.schema === undefined ? {} : { schema: spec.schema }),
          ...(spec.effort === undefined ? {} : { effort: spec.effort }),
          status: runStatus(job),
          createdAt: new Date(job.createdAt).toISOString(),
          finishedAt: ended ? new Date(job.updatedAt).toISOString() : null,
          creditsUsed: credits(job),
          message: output?.message ?? null,
          ...(includeData && job.status === 'completed' && spec.mode === 'extract'
            ? { data: output?.data }
            : {}),
          ...(output === undefined ? {} : { stopReason: output.stopReason }),
        },
      ],
    },
  };
}
