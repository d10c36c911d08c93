import { randomUUID } from 'node:crypto';
import type { BrowserProfileOption } from '../../../shared/api/v2/browser-profile-option';
import type { PageCapture, PageTaskSpec } from '../../../shared/protocol/messages';
import { errors } from '../../platform/errors';
import { type BrowserHub, TaskError } from '../../browsers/hub';
import { liveViewUrls } from './live-view-urls';
import type { SessionBrowser, SessionBrowsers } from '../../browsers/launcher';
import type { Log } from '../../platform/log';
import { openBrowserProfile, type BrowserProfileUse, taskErrorToApiError } from '../../scrape/capture';
import {
  StoreUnavailableError,
  type BrowserProfileStore,
  type BrowserSessionStore,
  type StoredBrowserSession,
  type CreditLedgerStore,
  type TeamStore,
} from '../../platform/store';
import { ensureCreditsLeft } from '../../platform/teams';
import type { UrlPolicy } from '../../platform/url-policy';
import { createLiveSession, type LiveSessionControl } from './create-live-session';
import type { InteractOptions } from '../../scrape/emit';
import type { LiveSessionDirectory } from './live-session';
import { sessionCredits } from './session-credits';
import { sessionErrors } from './session-errors';

/** Browser sessions a team may run at once (`POST /v2/browser` and interactions together). */
export const MAX_SESSIONS_PER_TEAM = 5;
/** How long a new session waits for a free tab before the create answers 503. */
export const SESSION_START_WAIT_MS = 60_000;
/** The first page's load and the tab's first answer (the extension gives the load 60 s). */
export const SESSION_READY_WAIT_MS = 75_000;
/** After the session's time, for its final capture and profile read-back, before the task is given up. */
export const SESSION_END_GRACE_MS = 20_000;
/** How long an ending session waits for the browser's final result. */
export const SESSION_END_WAIT_MS = 15_000;
/** The store's `lastActivity` is written at most this often per session. */
const ACTIVITY_WRITE_MS = 10_000;

export type SessionHub = Pick<
  BrowserHub,
  'runTask' | 'sendSession' | 'onSessionMessage' | 'taskBrowser' | 'cancelTask' | 'donatedCovers'
>;

export interface SessionStart {
  teamId: string;
  /** The masked key the session's credits are booked under (usage by key). */
  apiKey: string | undefined;
  kind: 'browser' | 'interact';
  scrapeId?: string;
  /** `about:blank`, or an interaction's page. */
  url: string;
  ttlMs: number;
  activityTtlMs: number | undefined;
  streamWebView: boolean;
  profile: BrowserProfileOption | undefined;
  options: InteractOptions & { blockAds?: boolean };
  /** The API's base URL, for the live view and CDP addresses. */
  publicBase: string;
  /** Record the session's tab for its replay (unless false). */
  record?: boolean;
}

/** A session this process runs. */
export interface RunningSession {
  control: LiveSessionControl;
  start: SessionStart;
  record: StoredBrowserSession;
  readyAt: number;
  lastActivityAt: number;
  activityWrittenAt: number;
  finished: Promise<PageCapture>;
  profile: BrowserProfileUse | undefined;
  /** The browser launched for this session alone; undefined on a donated browser. */
  browser: SessionBrowser | undefined;
  timers: NodeJS.Timeout[];
  ending: Promise<SessionEnd> | undefined;
}

export interface SessionEnd {
  durationMs: number;
  creditsBilled: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * Browser sessions: each is a page task with `session` set, leased from the scheduler for its
 * whole life, driven by commands through the hub, and ended by DELETE, its `ttl`, its
 * `activityTtl` without activity, or its browser going away. Its price (session-credits.ts) is
 * booked once, when it ends.
 *
 * Where it runs (docs/browser-sessions.md): an interaction with a page of the team's donated
 * browser runs there, in the person's login, as the scrape did. Every other session runs in a
 * browser launched for it alone (session-browsers), closed when it ends: it shares no cookies,
 * storage or tab with anyone, and holds no pool browser that other teams' scrapes wait for. A
 * server that launches no browsers (SESSION_BROWSERS=0, or browser nodes only) runs it on a pool
 * browser, alone there, in state wiped before and after it.
 */
export function createSessionLeases({
  hub,
  sessions: store,
  creditLedger,
  teams,
  browserProfiles,
  urlPolicy,
  sessionBrowsers,
  log,
}: {
  hub: SessionHub;
  sessions: BrowserSessionStore;
  creditLedger: CreditLedgerStore | undefined;
  teams: Pick<TeamStore, 'get'> | undefined;
  browserProfiles: BrowserProfileStore | undefined;
  urlPolicy: UrlPolicy;
  /** Browsers launched for one session each; undefined when this server launches none. */
  sessionBrowsers: SessionBrowsers | undefined;
  log: Log;
}) {
  const running = new Map<string, RunningSession>();
  const byToken = new Map<string, { id: string; interactive: boolean }>();

  const unsubscribe = hub.onSessionMessage((message) => {
    running.get(message.taskId)?.control.deliver(message);
  });

  const directory: LiveSessionDirectory = {
    get(id, teamId) {
      const session = running.get(id);
      return session !== undefined && session.start.teamId === teamId ? session.control.session : undefined;
    },
    byViewToken(token) {
      const entry = byToken.get(token);
      const session = entry === undefined ? undefined : running.get(entry.id);
      return session === undefined || entry === undefined
        ? undefined
        : { session: session.control.session, interactive: entry.interactive };
    },
  };

  const book = async (session: RunningSession, end: SessionEnd, reason: string) => {
    const { teamId, apiKey } = session.start;
    const id = session.control.session.id;
    if (end.creditsBilled > 0 && creditLedger !== undefined) {
      await creditLedger
        .charge({ key: `browser:${id}`, teamId, credits: end.creditsBilled, reason: 'browser', apiKey })
        .catch((err: unknown) => {
          if (!(err instanceof StoreUnavailableError)) throw err;
          log.warn('credit ledger unavailable; browser session not charged', {
            id,
            teamId,
            error: err.message,
          });
        })
        .catch((err: unknown) => log.error('could not charge a browser session', { id, error: String(err) }));
    }
    await store
      .finish(id, { endedAt: new Date(), endReason: reason, ...end })
      .catch((err: unknown) =>
        log.warn('could not record the end of a browser session', { id, error: String(err) }),
      );
  };

  /** Ends a session (once; later calls get the same outcome): final capture, profile saved, booked. */
  const end = (id: string, reason: string): Promise<SessionEnd> | undefined => {
    const session = running.get(id);
    if (session === undefined) return undefined;
    if (session.ending !== undefined) return session.ending;
    session.ending = (async () => {
      for (const timer of session.timers) clearTimeout(timer);
      const endedAt = Date.now();
      hub.sendSession({ type: 'session-end', taskId: id });
      const capture = await Promise.race([
        session.finished.catch(() => undefined),
        sleep(SESSION_END_WAIT_MS).then(() => undefined),
      ]);
      if (capture === undefined) hub.cancelTask(id, 'the session ended');
      session.control.close(new TaskError('TASK_CANCELLED', `The browser session has ended (${reason})`));
      await session.browser
        ?.close()
        .catch((err: unknown) => log.warn('could not close a session browser', { id, error: String(err) }));
      running.delete(id);
      byToken.delete(session.control.session.liveViewToken);
      byToken.delete(session.control.session.interactiveToken);
      if (capture !== undefined && session.profile !== undefined) {
        await session.profile
          .keep(capture)
          .catch((err: unknown) => log.warn('could not save a session profile', { id, error: String(err) }));
        const warning = session.profile.warning();
        if (warning !== undefined) log.warn('browser session profile', { id, warning });
      }
      const durationMs = Math.max(0, endedAt - session.readyAt);
      const outcome = { durationMs, creditsBilled: sessionCredits(durationMs) };
      await book(session, outcome, reason);
      log.info('browser session ended', { id, teamId: session.start.teamId, reason, ...outcome });
      return outcome;
    })();
    return session.ending;
  };

  const armIdle = (session: RunningSession, activityTtlMs: number) => {
    const check = () => {
      const idleFor = Date.now() - session.lastActivityAt;
      if (idleFor >= activityTtlMs) void end(session.control.session.id, 'idle');
      else session.timers.push(setTimeout(check, activityTtlMs - idleFor).unref());
    };
    session.timers.push(setTimeout(check, activityTtlMs).unref());
  };

  const onActivity = (id: string) => {
    const session = running.get(id);
    if (session === undefined) return;
    const now = Date.now();
    session.lastActivityAt = now;
    if (now - session.activityWrittenAt < ACTIVITY_WRITE_MS) return;
    session.activityWrittenAt = now;
    void store.touch(id, new Date(now)).catch(() => undefined);
  };

  /**
   * Where a session runs, by the rule above; refuses it (429/503) when the session browsers are
   * all taken, or the team holds its share of them.
   */
  const placeSession = (
    start: SessionStart,
    taskId: string,
  ): { browser: SessionBrowser | undefined; options: { ownBrowser?: true; isolated?: true } } => {
    const onDonated =
      start.profile === undefined &&
      start.url !== 'about:blank' &&
      hub.donatedCovers(start.teamId, start.url);
    if (onDonated) return { browser: undefined, options: {} };
    if (sessionBrowsers === undefined) return { browser: undefined, options: { isolated: true } };
    const launched = sessionBrowsers.launch({ taskId, teamId: start.teamId });
    if (!launched.ok) {
      throw launched.reason === 'full'
        ? sessionErrors.sessionBrowsersFull(launched.limit)
        : sessionErrors.sessionBrowsersTeamShare(launched.limit);
    }
    return { browser: launched.browser, options: { ownBrowser: true } };
  };

  /** Starts a session and resolves once its tab shows its page and answers. */
  async function open(start: SessionStart): Promise<RunningSession> {
    const { teamId } = start;
    const mine = [...running.values()].filter((session) => session.start.teamId === teamId).length;
    if (mine >= MAX_SESSIONS_PER_TEAM) throw sessionErrors.tooMany(MAX_SESSIONS_PER_TEAM);
    if (teams !== undefined) await ensureCreditsLeft(teams, teamId);
    let target: URL | undefined;
    if (start.url !== 'about:blank') {
      target = new URL(start.url);
      const verdict = await urlPolicy.check(target);
      if (!verdict.allowed) {
        throw verdict.reason === 'dns'
          ? errors.dnsResolution(target.hostname)
          : errors.urlBlocked(verdict.message);
      }
    }
    const profile =
      start.profile === undefined
        ? undefined
        : await openBrowserProfile(browserProfiles, teamId, start.profile, log);
    const { options } = start;
    const spec: PageTaskSpec = {
      url: start.url,
      waitForMs: 0,
      session: start.record === false ? {} : { record: true },
      networkPolicy: urlPolicy.networkPolicy,
      ...(options.headers === undefined ? {} : { headers: options.headers }),
      ...(options.mobile === true ? { mobile: true } : {}),
      ...(options.location === undefined ? {} : { location: options.location }),
      ...(options.blockAds === false ? { blockAds: false } : {}),
      ...(options.skipTlsVerification === false ? { skipTlsVerification: false } : {}),
      ...(profile === undefined ? {} : { profile: profile.task }),
    };
    const id = randomUUID();
    const placement = placeSession(start, id);
    const browser = placement.browser;
    let markStarted: () => void = () => {};
    const started = new Promise<void>((resolve) => (markStarted = resolve));
    const finished = hub.runTask(spec, {
      timeoutMs: start.ttlMs + SESSION_END_GRACE_MS,
      teamId,
      taskId: id,
      onStarted: () => markStarted(),
      ...placement.options,
    });
    // A session that does not start gives its browser back at once.
    const closeBrowser = () =>
      browser
        ?.close()
        .catch((err: unknown) => log.warn('could not close a session browser', { id, error: String(err) }));
    // Whoever ends the session reads it; a failure before anyone does must not go unhandled.
    finished.catch(() => undefined);
    const failure = (err: unknown) => taskErrorToApiError(err, target ?? new URL('about:blank'));
    const startedInTime = await Promise.race([
      started.then(() => true),
      finished.then(
        () => true,
        (err: unknown) => {
          throw err instanceof TaskError && err.code === 'NO_BROWSER' ? errors.noBrowser() : err;
        },
      ),
      sleep(SESSION_START_WAIT_MS).then(() => false),
    ]).catch(async (err: unknown) => {
      await closeBrowser();
      throw err instanceof TaskError ? failure(err) : err;
    });
    if (!startedInTime) {
      hub.cancelTask(id, 'no tab was free for the session');
      await closeBrowser();
      throw browser === undefined ? sessionErrors.noFreeBrowser() : sessionErrors.browserDidNotStart();
    }
    const where = hub.taskBrowser(id);
    const now = Date.now();
    const control = createLiveSession({
      id,
      teamId,
      browserClass: where?.browserClass ?? 'basic',
      donated: where?.donated ?? false,
      expiresAt: new Date(now + start.ttlMs),
      send: (message) => hub.sendSession(message),
      onActivity: () => onActivity(id),
    });
    const urls = liveViewUrls(start.publicBase, control.session);
    const session: RunningSession = {
      control,
      start,
      record: {
        _id: id,
        teamId,
        kind: start.kind,
        ...(start.scrapeId === undefined ? {} : { scrapeId: start.scrapeId }),
        status: 'active',
        ...urls,
        streamWebView: start.streamWebView,
        createdAt: new Date(now),
        lastActivity: new Date(now),
        // Past the session's own end, so that no TTL index removes a running session's record.
        expiresAt: new Date(now + start.ttlMs + 60 * 60_000),
      },
      readyAt: now,
      lastActivityAt: now,
      activityWrittenAt: now,
      finished,
      profile,
      browser,
      timers: [],
      ending: undefined,
    };
    running.set(id, session);
    try {
      // The tab answers once its first page has loaded: the session is usable from then on.
      await control.session.command({ kind: 'snapshot' }, SESSION_READY_WAIT_MS);
    } catch (err) {
      running.delete(id);
      control.close(new TaskError('TASK_CANCELLED', 'The browser session did not start'));
      hub.cancelTask(id, 'the session did not start');
      await closeBrowser();
      // The tab answers with the reason its page failed (the same the task's result carries).
      throw err instanceof TaskError ? failure(err) : err;
    }
    session.readyAt = Date.now();
    session.lastActivityAt = session.readyAt;
    byToken.set(control.session.liveViewToken, { id, interactive: false });
    byToken.set(control.session.interactiveToken, { id, interactive: true });
    await store.put(session.record).catch((err: unknown) => {
      log.warn('could not record a browser session', { id, error: String(err) });
    });
    session.timers.push(setTimeout(() => void end(id, 'ttl'), start.ttlMs).unref());
    if (start.activityTtlMs !== undefined && start.activityTtlMs < start.ttlMs) {
      armIdle(session, start.activityTtlMs);
    }
    // The browser went away, the task failed or ran out of time: the session ends with it.
    void finished.then(
      () => end(id, 'ended by the browser'),
      (err: unknown) => end(id, `failed: ${err instanceof Error ? err.message : String(err)}`),
    );
    log.info('browser session started', { id, teamId, kind: start.kind, donated: control.session.donated });
    return session;
  }

  return {
    directory,
    open,
    end,
    running: (id: string, teamId: string) => {
      const session = running.get(id);
      return session !== undefined && session.start.teamId === teamId ? session : undefined;
    },
    /** The team's sessions this process runs. */
    runningOf: (teamId: string) => [...running.values()].filter((session) => session.start.teamId === teamId),
    /** Ends every session (shutdown), each booked for the time it ran. */
    async stop() {
      unsubscribe();
      await Promise.all([...running.keys()].map((id) => end(id, 'server shutting down')));
    },
  };
}

export type SessionLeases = ReturnType<typeof createSessionLeases>;
