import { randomUUID } from 'node:crypto';
import type { DeepResearchRequestV1 } from '../../../shared/api/v1/deep-research-request';
import type { AgentRequestV2 } from '../../../shared/api/v2/agent-request';
import { errors } from '../../platform/errors';
import { createInProcessJobs } from '../jobs';
import { type ToolCallingLlm, SchemaRejectedError, guardSchema } from '../../platform/llm';
import type { Log } from '../../platform/log';
import type { Mapper } from '../map';
import type { Scraper } from '../../scrape/types';
import type { SearchService } from '../search';
import { type Stores, StoreUnavailableError, type Job, type AgentTraceStore } from '../../platform/store';
import { ensureCreditsLeft } from '../../platform/teams';
import type { UrlPolicy } from '../../platform/url-policy';
import { agentErrors } from './agent-errors';
import {
  AGENT_DEFAULT_MAX_CREDITS,
  AGENT_DEFAULT_TIMEOUT_MS,
  AGENT_HEARTBEAT_MS,
  AGENT_LIST_PAGE,
  AGENT_STALL_MS,
  MODEL_TURN_CREDITS,
  STEPS_BY_EFFORT,
} from './agent-limits';
import type { AgentOutput, AgentSpec } from './agent-spec';
import { agentListItem, agentStatusBody, agentThreadBody } from './agent-status';
import { createTraceRecorder } from './agent-trace';
import { enqueueAgentWebhook, settleWebhook } from './agent-webhooks';
import { researchStatusBody } from './research-status';
import { runAgent } from './run-agent';

export const AGENT_STOPPED_ERROR = 'The server stopped while this agent run worked; start it again.';
/** The smallest maxCredits: the answer and its one repair are always paid for. */
export const MIN_MAX_CREDITS = 3;
/** Deep research has no credit budget of its own: maxUrls, maxDepth and timeLimit bound it. */
const UNBOUNDED_CREDITS = Number.MAX_SAFE_INTEGER;

const badRequest = (message: string, path: string[]) =>
  errors.badRequest([{ code: 'custom', message, path }]);

function checkedSchema(schema: unknown, path: string[]): unknown {
  if (schema === undefined || schema === null) return undefined;
  try {
    return guardSchema(schema).schema;
  } catch (err) {
    if (!(err instanceof SchemaRejectedError)) throw err;
    throw badRequest(`Invalid schema: ${err.message}`, path);
  }
}

/**
 * Agent runs (`/v2/agent`) and deep research (`/v1/deep-research`): one loop (runAgent), two job
 * kinds in the job store, run in the instance that accepted them through createInProcessJobs
 * (heartbeat, stall detection, settling, the completed/failed webhooks), their traces in the
 * agent trace store. Credits: the tools' own (booked by the scraper, search and mapper as their
 * routes book them) plus MODEL_TURN_CREDITS per model call, booked once per run under
 * `agent:<id>:model`; the job's `creditsUsed` is their sum.
 */
export function createAgentService({
  stores,
  llm,
  scraper,
  search,
  mapper,
  urlPolicy,
  log,
  heartbeatMs = AGENT_HEARTBEAT_MS,
  stallAfterMs = AGENT_STALL_MS,
}: {
  stores: Pick<Stores, 'jobs' | 'teams' | 'webhookOutbox' | 'creditLedger'> & {
    agentTraces: AgentTraceStore;
  };
  /** Without it every start is a 400 that says what to configure. */
  llm: ToolCallingLlm | undefined;
  scraper: Scraper;
  search?: SearchService | undefined;
  mapper?: Mapper | undefined;
  urlPolicy?: UrlPolicy | undefined;
  log: Log;
  heartbeatMs?: number;
  stallAfterMs?: number;
}) {
  const common = {
    jobs: stores.jobs,
    webhookOutbox: stores.webhookOutbox,
    log,
    heartbeatMs,
    stallAfterMs,
    stoppedError: AGENT_STOPPED_ERROR,
  };
  const agentJobs = createInProcessJobs<AgentSpec, AgentOutput>({
    ...common,
    kind: 'agent',
    webhookOf: settleWebhook,
    webhookData: (output) => [{ data: output.data ?? output.message, stopReason: output.stopReason }],
  });
  const researchJobs = createInProcessJobs<AgentSpec, AgentOutput>({ ...common, kind: 'deepresearch' });
  /** Runs working here, so a cancel stops them at once (another instance's heartbeat notices within heartbeatMs). */
  const working = new Map<
    string,
    { controller: AbortController; cancelled: boolean; trace: ReturnType<typeof createTraceRecorder> }
  >();

  const checkUrl = async (url: string, path: string[]) => {
    if (urlPolicy === undefined) return;
    const verdict = await urlPolicy.check(new URL(url));
    if (!verdict.allowed && verdict.reason !== 'dns') {
      throw errors.urlBlocked(`URL refused (${path.join('.')}): ${verdict.message}`);
    }
  };

  const bookModelCalls = async (job: Job, calls: number) => {
    if (calls === 0) return;
    try {
      await stores.creditLedger.charge({
        key: `agent:${job._id}:model`,
        teamId: job.teamId,
        credits: calls * MODEL_TURN_CREDITS,
        reason: 'agent',
        ...(job.apiKey === undefined ? {} : { apiKey: job.apiKey }),
      });
    } catch (err) {
      if (!(err instanceof StoreUnavailableError)) throw err;
      log.warn('credit ledger unavailable; agent model calls not charged', {
        jobId: job._id,
        error: err.message,
      });
    }
  };

  const launch = async (teamId: string, spec: AgentSpec) => {
    const kind = spec.flavor === 'agent' ? 'agent' : 'deepresearch';
    const id = randomUUID();
    await stores.teams.ensure({ id: teamId, name: teamId });
    const job = await stores.jobs.create({ _id: id, teamId, kind, request: spec });
    const trace = createTraceRecorder({
      store: stores.agentTraces,
      runId: id,
      teamId,
      flavor: spec.flavor,
      log,
    });
    await trace.emit({ type: 'run.started' });
    await enqueueAgentWebhook({ outbox: stores.webhookOutbox, job, spec, event: 'started', key: 'started' });
    const entry = { controller: new AbortController(), cancelled: false, trace };
    working.set(id, entry);
    let actions = 0;
    (spec.flavor === 'agent' ? agentJobs : researchJobs).launch(job, spec, (run) =>
      runAgent(
        spec,
        { ...run, signal: AbortSignal.any([run.signal, entry.controller.signal]) },
        { llm: llm as ToolCallingLlm, scraper, search, mapper, log },
        {
          trace,
          cancelled: () => entry.cancelled,
          onAction: (action) =>
            enqueueAgentWebhook({
              outbox: stores.webhookOutbox,
              job,
              spec,
              event: 'action',
              key: `action:${actions++}`,
              data: [action],
            }).catch((err: unknown) => log.warn('could not queue an agent webhook', { error: String(err) })),
          onModelCalls: async (calls, total) => {
            await bookModelCalls(job, calls);
            // A cancelled run is not settled by the job runner: its final credits are written here.
            if (entry.cancelled) await stores.jobs.setCreditsUsed(id, total).catch(() => undefined);
          },
        },
      ).finally(() => working.delete(id)),
    );
    return { id };
  };

  const requireLlm = (what: 'agent' | 'deep research') => {
    if (llm === undefined) throw agentErrors.llmNotConfigured(what);
    return llm;
  };

  return {
    /** Checks an agent request, stores the run and starts it here; answers its id. */
    async start(teamId: string, request: AgentRequestV2): Promise<{ id: string }> {
      const model = requireLlm('agent');
      await ensureCreditsLeft(stores.teams, teamId);
      const schema = checkedSchema(request.schema, ['schema']);
      const maxCredits =
        request.maxCredits == null ? AGENT_DEFAULT_MAX_CREDITS : Math.floor(request.maxCredits);
      if (maxCredits < MIN_MAX_CREDITS) {
        throw badRequest(
          `maxCredits must be at least ${MIN_MAX_CREDITS}: the final answer and its one repair attempt take up to 2 credits.`,
          ['maxCredits'],
        );
      }
      const urls = (request.urls ?? []).map((url) => url.url);
      for (const [index, url] of urls.entries()) await checkUrl(url, ['urls', String(index)]);
      if (request.webhook != null) await checkUrl(request.webhook.url, ['webhook']);
      const effort = request.effort ?? undefined;
      return launch(teamId, {
        flavor: 'agent',
        prompt: request.prompt,
        urls,
        strict: request.strictConstrainToURLs === true,
        ...(schema === undefined ? {} : { schema }),
        mode: request.mode ?? 'extract',
        maxCredits,
        maxSteps: request.maxSteps ?? STEPS_BY_EFFORT[effort ?? 'medium'],
        timeoutMs: request.timeout ?? AGENT_DEFAULT_TIMEOUT_MS,
        requestedModel: request.model ?? undefined,
        model: model.model,
        effort,
        origin: request.origin ?? 'api',
        integration: request.integration ?? undefined,
        webhook: request.webhook ?? undefined,
        ...(request.checkPromptInjection === true ? { screensInjection: true } : {}),
      });
    },

    /** Checks a deep research request, stores the run and starts it here; answers its id. */
    async startResearch(teamId: string, request: DeepResearchRequestV1): Promise<{ id: string }> {
      const model = requireLlm('deep research');
      await ensureCreditsLeft(stores.teams, teamId);
      const schema = checkedSchema(request.jsonOptions?.schema, ['jsonOptions', 'schema']);
      return launch(teamId, {
        flavor: 'research',
        prompt: request.query,
        urls: [],
        strict: false,
        ...(schema === undefined ? {} : { schema }),
        mode: 'extract',
        maxCredits: UNBOUNDED_CREDITS,
        maxSteps: request.maxDepth,
        timeoutMs: request.timeLimit * 1000,
        maxPages: request.maxUrls,
        model: model.model,
        origin: request.origin ?? 'api',
        integration: request.integration ?? undefined,
        research: {
          maxDepth: request.maxDepth,
          analysisPrompt: request.analysisPrompt ?? undefined,
          systemPrompt: request.systemPrompt ?? undefined,
          json: request.formats.includes('json') || request.jsonOptions != null,
          jsonPrompt: request.jsonOptions?.prompt ?? undefined,
          jsonSystemPrompt: request.jsonOptions?.systemPrompt ?? undefined,
        },
      });
    },

    /** The run's status for its team; undefined for another team's run, another kind, or none. */
    async status(teamId: string, id: string) {
      const job = await agentJobs.read(teamId, id);
      return job === undefined ? undefined : agentStatusBody(job);
    },

    async researchStatus(teamId: string, id: string) {
      const job = await researchJobs.read(teamId, id);
      if (job === undefined) return undefined;
      return researchStatusBody(job, await stores.agentTraces.list(id));
    },

    /** The team's agent runs created before `before` (ms), newest first, a page at a time. */
    async list(teamId: string, before: number | undefined) {
      const firsts = await stores.agentTraces.runs(
        teamId,
        'agent',
        before === undefined ? new Date(Date.now() + 1000) : new Date(before),
        AGENT_LIST_PAGE + 1,
      );
      const page = firsts.slice(0, AGENT_LIST_PAGE);
      const jobs = await Promise.all(page.map((first) => agentJobs.read(teamId, first.runId)));
      const last = page.at(-1);
      return {
        agents: jobs.filter((job) => job !== undefined).map(agentListItem),
        nextBefore:
          firsts.length > AGENT_LIST_PAGE && last !== undefined ? new Date(last.at).getTime() : undefined,
      };
    },

    /** Cancels a running agent run: the loop stops, the run reads failed with stopReason `cancelled`. */
    async cancel(teamId: string, id: string): Promise<boolean> {
      const job = await agentJobs.read(teamId, id);
      if (job === undefined) return false;
      const cancelled = await stores.jobs.transition(id, ['scraping'], 'cancelled');
      if (cancelled === undefined) {
        const now = await stores.jobs.get(id);
        throw agentErrors.runEnded(now?.status === 'cancelled' ? 'cancelled' : (now?.status ?? job.status));
      }
      log.info('job cancelled', { jobId: id, teamId, kind: job.kind, creditsUsed: cancelled.creditsUsed });
      const here = working.get(id);
      const trace =
        here?.trace ??
        // A run working on another instance: after its own events, at a sequence number no run reaches.
        createTraceRecorder({
          store: stores.agentTraces,
          runId: id,
          teamId,
          flavor: 'agent',
          log,
          firstSeq: 900_000,
        });
      await trace.emit({ type: 'run.cancel_requested', reason: 'user' });
      if (here !== undefined) {
        here.cancelled = true;
        here.controller.abort();
      }
      await enqueueAgentWebhook({
        outbox: stores.webhookOutbox,
        job,
        spec: job.request as AgentSpec,
        event: 'cancelled',
        key: 'cancelled',
      });
      return true;
    },

    /** The run's trace events, in order. */
    async trace(teamId: string, id: string) {
      const job = await agentJobs.read(teamId, id);
      if (job === undefined) return undefined;
      const events = await stores.agentTraces.list(id);
      return { job, events: events.map((stored) => stored.event) };
    },

    async thread(teamId: string, id: string, includeData: boolean) {
      const job = await agentJobs.read(teamId, id);
      return job === undefined ? undefined : agentThreadBody(job, includeData);
    },

    /** The run's answer as a snapshot (`answer`), once completed. */
    async snapshot(teamId: string, id: string, snapshotId: string) {
      const job = await agentJobs.read(teamId, id);
      if (job === undefined) return undefined;
      const output = job.output as AgentOutput | undefined;
      if (snapshotId !== 'answer' || job.status !== 'completed' || output === undefined) {
        throw agentErrors.snapshotNotFound();
      }
      const value = output.message ?? output.data;
      return { id, snapshotId, snapshot: typeof value === 'string' ? value : JSON.stringify(value) };
    },

    /** Ends the runs working here as failed (the server is stopping). */
    async stop() {
      await agentJobs.stop();
      await researchJobs.stop();
    },
  };
}

export type AgentService = ReturnType<typeof createAgentService>;
