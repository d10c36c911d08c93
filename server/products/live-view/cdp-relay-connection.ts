import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { LiveSession } from '../browser-sessions';
import type { CdpEventSubscriptions } from './cdp-event-subscriptions';
import type { RelayNavigationCheck } from './cdp-relay-navigation-check';
import { createCdpRelayStreams } from './cdp-relay-streams';
import {
  BROWSER_TARGET_INFO,
  browserVersion,
  describePageTarget,
  pageTargetInfo,
  type PageTarget,
} from './cdp-page-target';

/** What a client sends: one command, for the browser (no sessionId) or for an attached page. */
const ClientCommand = z.object({
  id: z.number().int(),
  method: z.string().min(1).max(200),
  params: z.record(z.string(), z.unknown()).optional(),
  sessionId: z.string().max(100).optional(),
});
type ClientCommand = z.infer<typeof ClientCommand>;

/** Time a relayed command may take in the tab (a Playwright wait runs as one awaited evaluate). */
export const RELAY_COMMAND_TIMEOUT_MS = 120_000;

/** The CDP error code Chromium gives commands that fail on the server side. */
const SERVER_ERROR = -32000;

class RelayRefusal extends Error {}

const refuse = (message: string): never => {
  throw new RelayRefusal(message);
};

/** Page-session commands the relay answers itself: nothing to do for a tab that is already running. */
const PAGE_NO_OPS = new Set([
  'Runtime.runIfWaitingForDebugger',
  'Target.setAutoAttach',
  'Target.setDiscoverTargets',
]);

/**
 * One client of a session's cdpUrl relay. The client sees a browser with one page, the session's
 * tab: browser-level commands (Browser.getVersion, Target.setAutoAttach, Target.getTargets…) are
 * answered here, as Chromium would for a browser holding that one page, with a synthetic
 * `Target.attachedToTarget` (flattened sessions); commands of the page's session go to the tab as
 * `cdp` session commands (the browser checks them against its relay allowlist), and the tab's
 * events come back tagged with every attached page session. `page.pdf()`'s stream is served here
 * (cdp-relay-streams.ts). Nothing a client sends can reach another tab, another target or the
 * browser itself.
 */
export function createCdpRelayConnection({
  session,
  subscriptions,
  checkNavigation,
  send,
  close,
}: {
  session: LiveSession;
  subscriptions: CdpEventSubscriptions;
  /** The URL policy's look at a navigation before the tab is asked (none: the tab's checks only). */
  checkNavigation?: RelayNavigationCheck | undefined;
  send(message: unknown): void;
  close(code: number, reason: string): void;
}) {
  const pageSessions = new Set<string>();
  const streams = createCdpRelayStreams();
  let target: Promise<PageTarget> | undefined;
  let autoAttached = false;
  let released = false;
  let releaseEvents: (() => void) | undefined;
  let stopListening: (() => void) | undefined;

  const describe = () => {
    target ??= describePageTarget(session);
    target.catch(() => (target = undefined));
    return target;
  };
  /** Url and title change with navigations; the target id does not. */
  const freshTarget = async () => {
    const known = await describe();
    target = describePageTarget(session).catch(() => known);
    return target;
  };

  let eventsStarted: Promise<void> | undefined;
  /** The tab's events, for every page session of this client, from the first attach on. */
  const startEvents = () =>
    (eventsStarted ??= (async () => {
      stopListening = session.onEvent((event) => {
        if (event.kind !== 'cdp') return;
        for (const sessionId of pageSessions) send({ method: event.method, params: event.params, sessionId });
      });
      try {
        releaseEvents = await subscriptions.acquire(session);
      } catch (err) {
        stopListening();
        eventsStarted = undefined;
        throw err;
      }
      if (released) releaseEvents();
    })());

  const attachPage = async (): Promise<string> => {
    const page = await describe();
    await startEvents();
    const sessionId = randomBytes(16).toString('hex').toUpperCase();
    pageSessions.add(sessionId);
    send({
      method: 'Target.attachedToTarget',
      params: { sessionId, targetInfo: pageTargetInfo(page, true), waitingForDebugger: false },
    });
    return sessionId;
  };

  const detachPage = (sessionId: string, page: PageTarget | undefined) => {
    if (!pageSessions.delete(sessionId)) return;
    send({ method: 'Target.detachedFromTarget', params: { sessionId, targetId: page?.targetId } });
  };

  const browserCommand = async ({ method, params = {} }: ClientCommand): Promise<unknown> => {
    switch (method) {
      case 'Browser.getVersion':
        return browserVersion((await describe()).userAgent);
      case 'Target.setAutoAttach':
        if (params['autoAttach'] === true && !autoAttached) {
          if (params['flatten'] !== true)
            refuse('Target.setAutoAttach needs flatten: true (sessions by sessionId)');
          autoAttached = true;
          await attachPage();
        }
        return {};
      case 'Target.setDiscoverTargets':
        if (params['discover'] === true) {
          const page = await freshTarget();
          send({
            method: 'Target.targetCreated',
            params: { targetInfo: pageTargetInfo(page, pageSessions.size > 0) },
          });
        }
        return {};
      case 'Target.getTargets':
        return { targetInfos: [pageTargetInfo(await freshTarget(), pageSessions.size > 0)] };
      case 'Target.getTargetInfo': {
        if (params['targetId'] === undefined) return { targetInfo: BROWSER_TARGET_INFO };
        const page = await freshTarget();
        if (params['targetId'] !== page.targetId) refuse(`No target with given id found`);
        return { targetInfo: pageTargetInfo(page, pageSessions.size > 0) };
      }
      case 'Target.attachToTarget': {
        const page = await describe();
        if (params['targetId'] !== page.targetId) refuse('No target with given id found');
        if (params['flatten'] !== true)
          refuse('Target.attachToTarget needs flatten: true (sessions by sessionId)');
        return { sessionId: await attachPage() };
      }
      case 'Target.detachFromTarget': {
        const sessionId = params['sessionId'];
        if (typeof sessionId !== 'string' || !pageSessions.has(sessionId)) refuse('No session with given id');
        detachPage(sessionId as string, await target);
        return {};
      }
      case 'Target.activateTarget':
        return {};
      case 'Target.getBrowserContexts':
        return { browserContextIds: [] };
      // Downloads are not delivered through the relay (nothing is written to disk); accepting the
      // behaviour keeps Playwright's connect, which sets it for its default context, working.
      case 'Browser.setDownloadBehavior':
        return {};
      case 'Target.createTarget':
      case 'Target.createBrowserContext':
        return refuse(`${method} is not available: a browser session's cdpUrl reaches its one tab only`);
      case 'Target.closeTarget':
      case 'Browser.close':
        return refuse(`${method} is not available: end the session with DELETE /v2/browser/${session.id}`);
      default:
        return refuse(`${method} is not available through a browser session's cdpUrl (one tab only)`);
    }
  };

  /** Page.printToPDF as a stream (page.pdf() of both clients): the relay serves the stream. */
  const printToStream = async (params: Record<string, unknown>) => {
    const printed = (await session.command(
      { kind: 'cdp', method: 'Page.printToPDF', params: { ...params, transferMode: 'ReturnAsBase64' } },
      RELAY_COMMAND_TIMEOUT_MS,
    )) as { data?: unknown };
    if (typeof printed.data !== 'string') throw new Error('the tab answered Page.printToPDF without data');
    return { data: '', stream: streams.open(printed.data) };
  };

  const pageCommand = async ({ method, params }: ClientCommand): Promise<unknown> => {
    if (PAGE_NO_OPS.has(method)) return {};
    if (method === 'Target.getTargetInfo') return { targetInfo: pageTargetInfo(await freshTarget(), true) };
    if (method.startsWith('Target.') || method.startsWith('Browser.')) {
      return refuse(`${method} is not available through a browser session's cdpUrl (one tab only)`);
    }
    if (method === 'Page.navigate' && checkNavigation !== undefined) {
      const refused = await checkNavigation(String(params?.['url'] ?? ''));
      if (refused !== undefined) refuse(refused);
    }
    if (method === 'Page.printToPDF' && params?.['transferMode'] === 'ReturnAsStream')
      return printToStream(params);
    const handle = params?.['handle'];
    if (method === 'IO.read' && streams.has(handle)) return streams.read(handle, params ?? {});
    if (method === 'IO.close' && streams.has(handle)) {
      streams.close(handle);
      return {};
    }
    return session.command(
      { kind: 'cdp', method, ...(params === undefined ? {} : { params }) },
      RELAY_COMMAND_TIMEOUT_MS,
    );
  };

  const answer = (command: ClientCommand, outcome: { result: unknown } | { error: string }) => {
    if (released) return;
    const sessionId = command.sessionId === undefined ? {} : { sessionId: command.sessionId };
    if ('error' in outcome) {
      send({ id: command.id, ...sessionId, error: { code: SERVER_ERROR, message: outcome.error } });
    } else send({ id: command.id, ...sessionId, result: outcome.result ?? {} });
  };

  const release = () => {
    if (released) return;
    released = true;
    streams.clear();
    stopListening?.();
    releaseEvents?.();
  };

  void session.ended.then(async () => {
    if (released) return;
    const page = await target?.catch(() => undefined);
    for (const sessionId of [...pageSessions]) detachPage(sessionId, page);
    release();
    close(1000, 'the browser session ended');
  });

  return {
    /** One text frame from the client. */
    receive(text: string) {
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      const parsed = ClientCommand.safeParse(json);
      if (!parsed.success) {
        const id = (json as { id?: unknown } | undefined)?.id;
        if (typeof id === 'number') send({ id, error: { code: -32600, message: 'Invalid command' } });
        return;
      }
      const command = parsed.data;
      session.touch();
      let run: Promise<unknown>;
      if (command.sessionId === undefined) run = browserCommand(command);
      else if (pageSessions.has(command.sessionId)) run = pageCommand(command);
      else run = Promise.reject(new RelayRefusal('No session with given id'));
      run.then(
        (result) => answer(command, { result }),
        // The tab's own CDP errors are the client's to handle (Playwright expects many of them).
        (err: unknown) => answer(command, { error: err instanceof Error ? err.message : String(err) }),
      );
    },
    /** The client went away. */
    closed: release,
  };
}
