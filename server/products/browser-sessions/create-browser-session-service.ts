import { z } from 'zod';
import type { BrowserCreateRequest, BrowserExecuteRequest } from '../../../shared/api/v2/browser-session';
import { errors } from '../../platform/errors';
import { TaskError } from '../../browsers/hub';
import { LlmError, type LlmProvider } from '../../platform/llm';
import type { Log } from '../../platform/log';
import type { BrowserSessionStore, StoredBrowserSession, ResultStore } from '../../platform/store';
import type { SessionLeases, RunningSession } from './create-session-leases';
import { actionsOutput, codeOutput, failedOutput, type ExecuteResponse } from './execute-output';
import type { InteractOptionsMemory } from '../../scrape/emit';
import { planFromPrompt } from './plan-from-prompt';
import { sessionErrors } from './session-errors';
import { UPLOAD_ORIGIN } from '../parse';
import {
  DEFAULT_SANDBOX_LIMITS,
  RelayUnreachable,
  runPlaywrightCode,
  sandboxOutput,
  type OpenRelayEndpoint,
  type SandboxLimits,
} from './execute';

/** A scrape's interaction lives this long at most, and ends after this long without activity. */
export const INTERACT_TTL_MS = 30 * 60_000;
export const INTERACT_ACTIVITY_TTL_MS = 10 * 60_000;

/** Firecrawl's BrowserSession (list items). */
export interface BrowserSessionInfo {
  id: string;
  status: string;
  cdpUrl: string;
  liveViewUrl: string;
  interactiveLiveViewUrl: string;
  streamWebView: boolean;
  createdAt: string;
  lastActivity: string;
}

/** A stored scrape result, as far as an interaction reads it. */
const StoredScrape = z.object({
  metadata: z.object({ url: z.string().optional(), sourceURL: z.string().optional() }),
});

const sessionUrls = (session: RunningSession) => ({
  cdpUrl: session.record.cdpUrl,
  liveViewUrl: session.record.liveViewUrl,
  interactiveLiveViewUrl: session.record.interactiveLiveViewUrl,
});

/** What a failed command means for the caller: its own code's failure is output, the rest are errors. */
function commandFailure(err: unknown, timeoutS: number): ExecuteResponse {
  if (!(err instanceof TaskError)) throw err;
  switch (err.code) {
    case 'SCRAPE_TIMEOUT':
      return failedOutput(`Execution timed out after ${timeoutS} s and was stopped: ${err.message}`, {
        killed: true,
      });
    case 'SCRAPE_ACTION_ERROR':
    case 'SCRAPE_SITE_ERROR':
    case 'SCRAPE_DNS_RESOLUTION_ERROR':
    case 'SCRAPE_SSL_ERROR':
      return failedOutput(err.message, { killed: false });
    case 'URL_BLOCKED':
      throw errors.urlBlocked(err.message);
    case 'TASK_REFUSED':
    case 'DONATED_BROWSER_REFUSED':
      throw errors.donatedBrowserRefused(err.message);
    case 'TASK_CANCELLED':
    case 'BROWSER_LOST':
      throw sessionErrors.ended(err.message);
    default:
      return failedOutput(err.message, { killed: false });
  }
}

/**
 * The browser session API (`/v2/browser`, a scrape's `/interact`) over the session leases: the
 * request's terms in, Firecrawl's response shapes out.
 */
export function createBrowserSessionService({
  leases,
  store,
  results,
  interactOptions,
  llm,
  log,
  openRelayEndpoint,
  sandboxLimits = DEFAULT_SANDBOX_LIMITS,
}: {
  leases: SessionLeases;
  store: BrowserSessionStore;
  results: ResultStore;
  interactOptions: InteractOptionsMemory;
  llm: LlmProvider | undefined;
  log: Log;
  /** The CDP relay's private endpoint for `language: "node"` code; without it, such code is a 503. */
  openRelayEndpoint?: OpenRelayEndpoint | undefined;
  sandboxLimits?: SandboxLimits;
}) {
  /** Interactions by team and scrape id, and those being opened (two first calls open one). */
  const interactions = new Map<string, string>();
  const opening = new Map<string, Promise<RunningSession>>();

  /** `language: "node"`: the caller's Playwright code, sandboxed, on the session's page. */
  async function runPlaywright(session: RunningSession, code: string, timeoutS: number) {
    if (openRelayEndpoint === undefined) throw sessionErrors.playwrightUnavailable();
    const live = session.control.session;
    try {
      const outcome = await runPlaywrightCode({
        session: live,
        code,
        timeoutMs: Math.round(timeoutS * 1000),
        limits: sandboxLimits,
        openEndpoint: openRelayEndpoint,
      });
      return sandboxOutput(outcome, { timeoutS, limits: sandboxLimits });
    } catch (err) {
      if (!(err instanceof RelayUnreachable)) throw err;
      if (leases.running(live.id, live.teamId) === undefined) throw sessionErrors.ended(err.message);
      log.warn('execute: the session page was not reachable through its relay', {
        session: live.id,
        error: err.message,
      });
      return failedOutput(`The session's page could not be reached: ${err.message}`, { killed: false });
    }
  }

  async function run(session: RunningSession, body: BrowserExecuteRequest): Promise<ExecuteResponse> {
    const live = session.control.session;
    const timeoutMs = Math.round(body.timeout * 1000);
    const language = body.language ?? 'node';
    const code = body.code?.trim() ? body.code : undefined;
    if (code !== undefined && language === 'python') throw sessionErrors.pythonNotAvailable();
    if (code !== undefined && language === 'bash') throw sessionErrors.bashNotAvailable();
    if (code !== undefined && language !== 'page') return runPlaywright(session, code, body.timeout);
    try {
      if (body.actions !== undefined) {
        return actionsOutput(await live.command({ kind: 'actions', actions: body.actions, timeoutMs }));
      }
      if (code !== undefined) {
        return codeOutput(await live.command({ kind: 'evaluate', code, timeoutMs }));
      }
      if (llm === undefined) throw sessionErrors.noModel();
      const page = await live.command({ kind: 'snapshot' });
      const plan = await planFromPrompt(llm, { prompt: body.prompt ?? '', page }).catch((err: unknown) => {
        if (err instanceof LlmError) throw sessionErrors.modelFailed(err.message);
        throw err;
      });
      const until = Date.now() + timeoutMs;
      const left = () => Math.max(1, until - Date.now());
      const actions =
        plan.actions.length > 0
          ? await live.command({ kind: 'actions', actions: plan.actions, timeoutMs: left() })
          : undefined;
      const evaluated =
        plan.code === undefined
          ? undefined
          : await live.command({ kind: 'evaluate', code: plan.code, timeoutMs: left() });
      const output =
        evaluated === undefined
          ? actions === undefined
            ? undefined
            : actionsOutput(actions)
          : codeOutput(evaluated);
      return { ...(output ?? codeOutput({ value: undefined })), output: plan.answer };
    } catch (err) {
      return commandFailure(err, body.timeout);
    }
  }

  const toInfo = (record: StoredBrowserSession, running: RunningSession | undefined): BrowserSessionInfo => ({
    id: record._id,
    status: running === undefined ? record.status : 'active',
    cdpUrl: record.cdpUrl,
    liveViewUrl: record.liveViewUrl,
    interactiveLiveViewUrl: record.interactiveLiveViewUrl,
    streamWebView: record.streamWebView,
    createdAt: record.createdAt.toISOString(),
    lastActivity: new Date(running?.lastActivityAt ?? record.lastActivity.getTime()).toISOString(),
  });

  const finished = async (pending: Promise<{ durationMs: number; creditsBilled: number }>) => {
    const { durationMs, creditsBilled } = await pending;
    return { success: true as const, status: 'destroyed', sessionDurationMs: durationMs, creditsBilled };
  };

  async function openInteraction(
    teamId: string,
    scrapeId: string,
    apiKey: string | undefined,
    publicBase: string,
  ) {
    const stored = await results.get(scrapeId);
    if (stored === undefined || stored.teamId !== teamId) throw errors.scrapeNotFound();
    const parsed = StoredScrape.safeParse(stored.document);
    const url = parsed.success ? (parsed.data.metadata.url ?? parsed.data.metadata.sourceURL) : undefined;
    if (url === undefined || !/^https?:\/\//i.test(url)) throw errors.scrapeNotFound();
    // An upload's result stands at an address that never resolves: there is no page to open.
    if (url.startsWith(`${UPLOAD_ORIGIN}/`)) throw sessionErrors.notAPage();
    const { profile, ...options } = interactOptions.recall(scrapeId, teamId) ?? {};
    return leases.open({
      teamId,
      apiKey,
      kind: 'interact',
      scrapeId,
      url,
      ttlMs: INTERACT_TTL_MS,
      activityTtlMs: INTERACT_ACTIVITY_TTL_MS,
      streamWebView: true,
      profile,
      options,
      publicBase,
    });
  }

  return {
    directory: leases.directory,

    async create(
      teamId: string,
      request: BrowserCreateRequest,
      { apiKey, publicBase }: { apiKey: string | undefined; publicBase: string },
    ) {
      const session = await leases.open({
        teamId,
        apiKey,
        kind: 'browser',
        url: 'about:blank',
        ttlMs: request.ttl * 1000,
        activityTtlMs: request.activityTtl === undefined ? undefined : request.activityTtl * 1000,
        streamWebView: request.streamWebView,
        record: request.recordSession,
        profile: request.profile,
        options: {
          ...(request.blockAds ? {} : { blockAds: false }),
          ...(request.location === undefined ? {} : { location: { country: request.location.country } }),
        },
        publicBase,
      });
      return {
        success: true as const,
        id: session.control.session.id,
        ...sessionUrls(session),
        expiresAt: session.control.session.expiresAt.toISOString(),
      };
    },

    async execute(teamId: string, id: string, body: BrowserExecuteRequest) {
      const session = leases.running(id, teamId);
      if (session === undefined) throw sessionErrors.notFound();
      return { ...sessionUrls(session), ...(await run(session, body)) };
    },

    async list(teamId: string, status: 'active' | 'destroyed' | undefined) {
      const records = await store.list(teamId, status);
      const seen = new Set(records.map((record) => record._id));
      const live = leases.runningOf(teamId);
      // A running session whose record could not be written is listed all the same.
      const unrecorded =
        status === 'destroyed' ? [] : live.filter((session) => !seen.has(session.record._id));
      return [
        ...unrecorded.map((session) => toInfo(session.record, session)),
        ...records
          .filter((record) => status !== 'active' || leases.running(record._id, teamId) !== undefined)
          .map((record) => toInfo(record, leases.running(record._id, teamId))),
      ];
    },

    async destroy(teamId: string, id: string) {
      const session = leases.running(id, teamId);
      const ending = session === undefined ? undefined : leases.end(id, 'deleted');
      if (ending !== undefined) return finished(ending);
      // Already ended: deleting again says how it went.
      const record = await store.get(id, teamId);
      if (record === undefined || record.status !== 'destroyed') throw sessionErrors.notFound();
      return finished(
        Promise.resolve({ durationMs: record.durationMs ?? 0, creditsBilled: record.creditsBilled ?? 0 }),
      );
    },

    async interact(
      teamId: string,
      scrapeId: string,
      body: BrowserExecuteRequest,
      { apiKey, publicBase }: { apiKey: string | undefined; publicBase: string },
    ) {
      const key = `${teamId}\n${scrapeId}`;
      const known = interactions.get(key);
      let session = known === undefined ? undefined : leases.running(known, teamId);
      if (session === undefined || session.ending !== undefined) {
        let pending = opening.get(key);
        if (pending === undefined) {
          pending = openInteraction(teamId, scrapeId, apiKey, publicBase).finally(() => opening.delete(key));
          opening.set(key, pending);
        }
        session = await pending;
        interactions.set(key, session.control.session.id);
        const id = session.control.session.id;
        void session.control.session.ended.then(() => {
          if (interactions.get(key) === id) interactions.delete(key);
        });
      }
      return { ...sessionUrls(session), ...(await run(session, body)) };
    },

    async stopInteraction(teamId: string, scrapeId: string) {
      const key = `${teamId}\n${scrapeId}`;
      const id = interactions.get(key);
      const ending = id === undefined ? undefined : leases.end(id, 'deleted');
      if (ending !== undefined) return finished(ending);
      const stored = await results.get(scrapeId);
      if (stored === undefined || stored.teamId !== teamId) throw errors.scrapeNotFound();
      log.info('stop interaction: none open', { scrapeId });
      return { success: true as const, status: 'destroyed', sessionDurationMs: 0, creditsBilled: 0 };
    },

    stop: () => leases.stop(),
  };
}

export type BrowserSessionService = ReturnType<typeof createBrowserSessionService>;
