import type {
  PageCapture,
  SessionCommandMessage,
  SessionEvent,
  TaskMessage,
} from '../../shared/protocol/messages';
import { borrowCdp } from '../debugger/cdp-session';
import { browserUserAgentMetadata } from '../debugger/user-agent-metadata';
import { COOKIE_BANNER_SCRIPT, emulationCommands } from '../debugger/emulation-commands';
import { callSource, evaluateIsolated } from '../debugger/evaluate-isolated';
import { createPageWatch } from '../debugger/page-watch';
import { checkTaskUrl, createAddressGuard, watchPeersOverCdp } from '../network/task-address-guard';
import { CONTENT_PANELS } from '../../shared/html/content-panels';
import { capturePage, type InPageCapture } from '../page/capture-page';
import type { TabDebugger, TaskTab, TaskTabPool } from '../tabs/task-tab-pool';
import { loadProfileCookies, readProfileState } from './browser-profile';
import { captureWithDebugger } from './capture-with-debugger';
import { beforeDeadline } from '../task-kit/deadline';
import { PageTaskError } from '../task-kit/page-task-error';
import { RESULT_MARGIN_MS, addRulesForTask, removeRulesOfTask, type PageTaskRun } from './run-page-task';
import { captureSettle } from '../task-kit/settle-policy';
import { createLiveCommands, type LiveCommands } from '../sessions/live-commands';
import { isPageCommand, runPageCommand, type SessionPage } from '../sessions/session-commands';
import type { SessionRegistry, SessionSend } from '../sessions/session-registry';
import { recordSessionTab } from '../sessions/replay-recording';

/** The session's first page gets this long to load; the session's own time may be an hour. */
export const SESSION_LOAD_MS = 60_000;
/**
 * Kept back from the task's time for the final capture and the profile's read-back, when the
 * session ends by running out of time rather than by the server's `session-end`.
 */
export const SESSION_END_BUDGET_MS = 10_000;

const errorOf = (err: unknown) =>
  err instanceof PageTaskError
    ? { code: err.code, message: err.message }
    : { code: 'BROWSER_ERROR' as const, message: err instanceof Error ? err.message : String(err) };

/** A promise with its resolve and reject at hand. */
function deferred<T>() {
  let resolve: (value: T) => void = () => {};
  let reject: (reason: unknown) => void = () => {};
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Nobody may be waiting when it fails (the session failed before any command came).
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

/** The tab shows the task's page, with the task's emulation; about:blank gets the emulation only. */
async function openFirstPage(
  task: TaskMessage,
  tab: TaskTab,
  session: TabDebugger,
  signal: AbortSignal,
  deadline: number,
): Promise<void> {
  const { spec } = task;
  if (spec.url !== 'about:blank') {
    // The scrape path loads it: emulation, the profile's localStorage, certificate and policy
    // checks, and a page that does not load fails the session as it would fail a scrape.
    await captureWithDebugger(
      { ...spec, actions: undefined, branding: false, waitForMs: 0 },
      { deadline: Math.min(deadline, Date.now() + SESSION_LOAD_MS), taskSignal: signal, tab },
    );
    return;
  }
  for (const command of emulationCommands(spec, navigator.userAgent, await browserUserAgentMetadata())) {
    if (command !== COOKIE_BANNER_SCRIPT) await session.cdp.send(command.method, command.params);
  }
  await session.setCookieBannerScript(spec.blockAds !== false);
}

/** The page as it is when the session ends (the task's result). */
async function captureNow(page: SessionPage, deadline: number): Promise<PageCapture> {
  const captured = (
    await beforeDeadline(
      evaluateIsolated(
        page.cdp,
        page.mainFrameId(),
        callSource(capturePage, { settle: captureSettle(deadline, 0), contentPanels: CONTENT_PANELS }),
        { awaitPromise: true },
      ),
      deadline,
    )
  ).value as InPageCapture;
  page.guard.assertClean();
  const response = page.watch.response();
  return {
    url: captured.url,
    statusCode: response?.status ?? captured.responseStatus ?? 0,
    contentType: response?.contentType ?? captured.documentContentType,
    rawHtml: captured.rawHtml,
    renderedHtml: captured.renderedHtml,
  };
}

/**
 * A session task (`spec.session`): a tab of its own, set up as a scrape's is (the profile's
 * cookies, the task's network rules, emulation), shows the task's page and then serves the
 * server's commands until `session-end`, its time running out, or a cancel. The page commands
 * (evaluate, actions, navigate, snapshot) run one at a time; the live view's (screencast, input,
 * CDP) go to live-commands.ts at once, so that a long script does not freeze the person watching.
 * One debugger session serves both for the whole session. At the end the page is captured (and
 * the profile read back) for the task's result; the tab is closed, never pooled.
 */
export function runSessionTask(
  task: TaskMessage,
  taskSignal: AbortSignal,
  {
    pool,
    fenceDomains,
    sessions,
    send,
  }: {
    pool: TaskTabPool;
    fenceDomains?: readonly string[] | undefined;
    sessions: SessionRegistry;
    send: SessionSend;
  },
): PageTaskRun {
  let finishCleanup: () => void = () => {};
  const cleanedUp = new Promise<void>((resolve) => (finishCleanup = resolve));
  const deadline = Date.now() + task.timeoutMs - RESULT_MARGIN_MS;
  const ready = deferred<{ page: SessionPage; live: LiveCommands }>();
  const endRequested = deferred<void>();
  let ended = false;
  /** The page commands, one after another. */
  let pageQueue: Promise<unknown> = Promise.resolve();

  const reply = (commandId: string, outcome: { result: unknown } | { error: unknown }) =>
    send(
      'result' in outcome
        ? { type: 'session-reply', taskId: task.taskId, commandId, ok: true, result: outcome.result }
        : { type: 'session-reply', taskId: task.taskId, commandId, ok: false, error: errorOf(outcome.error) },
    );

  const serve = async ({ commandId, command }: SessionCommandMessage) => {
    try {
      const { page, live } = await ready.promise;
      if (ended) throw new PageTaskError('TASK_CANCELLED', 'the session has ended');
      if (!isPageCommand(command)) {
        reply(commandId, { result: await live.run(command) });
        return;
      }
      const run = pageQueue.then(() => {
        if (ended) throw new PageTaskError('TASK_CANCELLED', 'the session has ended');
        return runPageCommand(page, command);
      });
      pageQueue = run.catch(() => undefined);
      reply(commandId, { result: await run });
    } catch (err) {
      reply(commandId, { error: err });
    }
  };

  const unregister = sessions.add(task.taskId, {
    command: (message) => void serve(message),
    end: () => endRequested.resolve(),
  });

  const result = (async () => {
    let tab: TaskTab | undefined;
    let ruleIds: number[] = [];
    let live: LiveCommands | undefined;
    let view: ReturnType<typeof borrowCdp> | undefined;
    let stopRecording: (() => void) | undefined;
    try {
      const { spec } = task;
      if (spec.url !== 'about:blank') checkTaskUrl(spec.url, spec.networkPolicy);
      // A donated browser holds its owner's logins, which a profile would read and mix with.
      if (spec.profile !== undefined && fenceDomains !== undefined) {
        throw new PageTaskError('TASK_REFUSED', 'a donated browser does not run browser profiles');
      }
      // A new tab, never a pooled one, and closed at the end: the session reaches the tab's
      // execution contexts, and a pooled tab holds the previous task's page and world.
      tab = await pool.acquire(spec.networkPolicy, { fresh: true });
      if (spec.profile !== undefined) await loadProfileCookies(spec.profile);
      ruleIds = await addRulesForTask(task, tab.tabId, fenceDomains);
      const session = await tab.debugger();
      await openFirstPage(task, tab, session, taskSignal, deadline);

      // The session's own view of the debugger: its listeners go when the session ends.
      view = borrowCdp(session.cdp);
      const guard = await createAddressGuard(spec.networkPolicy);
      watchPeersOverCdp(guard, view, session.mainFrame.id);
      const watch = createPageWatch(view, session.mainFrame.id);
      const emit = (event: SessionEvent) => send({ type: 'session-event', taskId: task.taskId, event });
      view.onEvent((method, params) => {
        const frame = params.frame as { url: string; parentId?: string } | undefined;
        if (method === 'Page.frameNavigated' && frame !== undefined && frame.parentId === undefined) {
          emit({ kind: 'navigated', url: frame.url });
        }
      });
      const donated = fenceDomains !== undefined;
      // The session's replay: this tab only (docs/browser-sessions.md#replay).
      if (spec.session?.record === true) {
        const recording = recordSessionTab({ tabId: tab.tabId, emit });
        stopRecording = recording.stop;
        await recording.started;
      }
      live = createLiveCommands({
        tabId: tab.tabId,
        cdp: view,
        emit,
        donated,
        guard,
        networkPolicy: spec.networkPolicy,
      });
      const page: SessionPage = {
        cdp: view,
        mainFrameId: () => session.mainFrame.id,
        currentUrl: () => session.mainFrame.url,
        watch,
        guard,
        spec,
        signal: AbortSignal.any([taskSignal, guard.signal]),
        donated,
      };
      ready.resolve({ page, live });

      // Until the server ends it, its time runs out, or it is cancelled.
      const cancelled = new Promise<never>((_, reject) => {
        const onAbort = () => reject(new PageTaskError('TASK_CANCELLED', 'cancelled'));
        if (taskSignal.aborted) onAbort();
        else taskSignal.addEventListener('abort', onAbort, { once: true });
      });
      let timer: ReturnType<typeof setTimeout> | undefined;
      const outOfTime = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, Math.max(0, deadline - SESSION_END_BUDGET_MS - Date.now()));
      });
      // A person closing a donated browser's task window, or its debugger infobar, ends it too.
      const detached = session.cdp.detached.then((reason) => {
        throw new PageTaskError('BROWSER_ERROR', `the session's tab went away (${reason})`);
      });
      // The pool's own detach at the end settles it too, with nobody listening any more.
      detached.catch(() => undefined);
      // A refused address seen in the tab ends the session: its capture then fails URL_BLOCKED.
      const guardTripped = new Promise<void>((resolve) => {
        if (guard.signal.aborted) resolve();
        else guard.signal.addEventListener('abort', () => resolve(), { once: true });
      });
      await Promise.race([endRequested.promise, outOfTime, cancelled, detached, guardTripped]).finally(() =>
        clearTimeout(timer),
      );
      ended = true;
      const capture = await captureNow(page, deadline);
      // While the tab still shows the page: its origin's localStorage comes with the jar.
      return spec.profile?.readBack === true
        ? {
            ...capture,
            profileState: await readProfileState(tab.tabId, { cdp: view, frameId: session.mainFrame.id }),
          }
        : capture;
    } catch (err) {
      ready.reject(err);
      throw err;
    } finally {
      ended = true;
      unregister();
      stopRecording?.();
      const usedTab = tab;
      const usedRules = ruleIds;
      const usedLive = live;
      const usedView = view;
      // Not awaited: the result goes out first, the clean-up follows. The tab is closed: its
      // page, history and emulation are the session's.
      void (async () => {
        await usedLive?.stop().catch(() => undefined);
        usedView?.release();
        await removeRulesOfTask(task.taskId, usedRules);
        if (usedTab !== undefined) await pool.release(usedTab, { reusable: false }).catch(() => undefined);
      })().finally(finishCleanup);
    }
  })();
  return { result, cleanedUp };
}
