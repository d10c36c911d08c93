import { browser, type Browser } from 'wxt/browser';
import { pickBlockSignalHeaders } from '../../shared/block-pages/block-signal-headers';
import type { AddressGuard } from '../network/task-address-guard';
import { PageTaskError } from '../task-kit/page-task-error';

/** The main frame's last document response, as webRequest reported it. */
export interface MainFrameResponse {
  url: string;
  status: number;
  contentType: string | undefined;
  /** The headers that tell an anti-bot system answered (block-signal-headers.ts). */
  blockSignals: Record<string, string>;
}

/**
 * Request types a page's content can wait on. Images, media, fonts and beacons are left out: an
 * image's element is in the DOM before its bytes arrive, and a beacon changes nothing shown.
 */
const CONTENT_TYPES = new Set(['main_frame', 'sub_frame', 'script', 'xmlhttprequest', 'stylesheet', 'other']);

/**
 * What one task's tab does on the network and in its main frame, seen through webRequest and
 * webNavigation events, without the debugger: requests in flight, the document's response, commits
 * and failures. Every response's peer address goes to the task's address guard.
 */
export interface TabTraffic {
  /** Content requests of the tab in flight now. */
  inFlight(): number;
  /** When a content request of the tab last started or ended (Date.now()). */
  lastActivityAt(): number;
  /** The main frame's latest document response. */
  response(): MainFrameResponse | undefined;
  /** How many documents the main frame has committed since the watch began. */
  commits(): number;
  /** The URL of the latest of them. */
  committedUrl(): string | undefined;
  /** Whether the latest of them fired `load` (webNavigation's onCompleted). */
  loaded(): boolean;
  /** The net error that ended the main frame's latest navigation, if it failed. */
  failure(): string | undefined;
  /** Resolves true once `condition` holds, false at `deadline`; rejects when `signal` aborts. */
  until(condition: () => boolean, deadline: number, signal: AbortSignal): Promise<boolean>;
  stop(): void;
}

interface TabState {
  inFlight: Set<string>;
  lastActivityAt: number;
  response: MainFrameResponse | undefined;
  commits: number;
  committedUrl: string | undefined;
  loaded: boolean;
  failure: string | undefined;
  guard: AddressGuard;
  wake(): void;
}

/** The tabs being watched; the listeners are registered while there is any. */
const watched = new Map<number, TabState>();
/** Listeners stay registered this long after the last watch ends, so a crawl does not churn them. */
const LINGER_MS = 30_000;
let lingerTimer: ReturnType<typeof setTimeout> | undefined;
let listening = false;

const stateOf = (tabId: number) => (tabId >= 0 ? watched.get(tabId) : undefined);

function contentTypeOf(headers: Browser.webRequest.HttpHeader[] | undefined): string | undefined {
  return headers?.find((header) => header.name.toLowerCase() === 'content-type')?.value;
}

const onBeforeRequest = (details: Browser.webRequest.OnBeforeRequestDetails) => {
  const state = stateOf(details.tabId);
  if (state === undefined || !CONTENT_TYPES.has(details.type)) return undefined;
  state.inFlight.add(details.requestId);
  state.lastActivityAt = Date.now();
  if (details.type === 'main_frame') state.failure = undefined;
  state.wake();
  return undefined;
};

const onBeforeRedirect = (details: Browser.webRequest.OnBeforeRedirectDetails) => {
  stateOf(details.tabId)?.guard.checkPeer(details.url, details.ip);
};

const onResponseStarted = (details: Browser.webRequest.OnResponseStartedDetails) => {
  const state = stateOf(details.tabId);
  if (state === undefined) return;
  state.guard.checkPeer(details.url, details.ip, details.responseHeaders);
  if (details.type === 'main_frame') {
    state.response = {
      url: details.url,
      status: details.statusCode,
      contentType: contentTypeOf(details.responseHeaders),
      blockSignals: pickBlockSignalHeaders(
        (details.responseHeaders ?? []).map((header) => [header.name, header.value] as const),
      ),
    };
  }
  state.wake();
};

const finish = (tabId: number, requestId: string) => {
  const state = stateOf(tabId);
  if (state === undefined || !state.inFlight.delete(requestId)) return;
  state.lastActivityAt = Date.now();
  state.wake();
};

const onCompleted = (details: Browser.webRequest.OnCompletedDetails) =>
  finish(details.tabId, details.requestId);

const onErrorOccurred = (details: Browser.webRequest.OnErrorOccurredDetails) => {
  const state = stateOf(details.tabId);
  if (state !== undefined && details.type === 'main_frame' && !details.error.includes('ERR_ABORTED')) {
    // Ad blocking never touches a document: a blocked main frame met the URL policy (or a fence).
    if (details.error.includes('ERR_BLOCKED_BY_CLIENT')) state.guard.blockedNavigation();
    state.failure = details.error;
  }
  finish(details.tabId, details.requestId);
};

const onCommitted = (details: Browser.webNavigation.WebNavigationTransitionCallbackDetails) => {
  const state = details.frameId === 0 ? stateOf(details.tabId) : undefined;
  if (state === undefined) return;
  state.commits += 1;
  state.committedUrl = details.url;
  state.loaded = false;
  state.wake();
};

const onNavigationCompleted = (details: Browser.webNavigation.WebNavigationFramedCallbackDetails) => {
  const state = details.frameId === 0 ? stateOf(details.tabId) : undefined;
  // The load of the about:blank a task went through, reported after the page committed, is not
  // the page's (URLs are not compared otherwise: a page may pushState before its load).
  if (state === undefined || (details.url === 'about:blank' && state.committedUrl !== 'about:blank')) return;
  state.loaded = true;
  state.wake();
};

/** A failed navigation of the main frame, also to what webRequest does not see (chrome-extension:, data:). */
const onNavigationError = (details: Browser.webNavigation.WebNavigationFramedErrorCallbackDetails) => {
  const state = details.frameId === 0 ? stateOf(details.tabId) : undefined;
  if (state === undefined || details.error.includes('ERR_ABORTED')) return;
  state.failure ??= details.error;
  state.wake();
};

const ALL_URLS = { urls: ['<all_urls>'] };

/** Resolves once the browser has the listeners (see listen()). */
let registered: Promise<unknown> = Promise.resolve();

/**
 * Registers the listeners, unless they are. Registering is a message to the browser like any
 * call, and events of a navigation started before the browser handled it would be missed (the
 * first task of a fresh worker waited for a commit it never heard of): an answered call sent after
 * it means the browser has it, since it handles an extension's messages in order.
 */
function listen(tabId: number): Promise<unknown> {
  clearTimeout(lingerTimer);
  if (listening) return registered;
  listening = true;
  browser.webRequest.onBeforeRequest.addListener(onBeforeRequest, ALL_URLS);
  browser.webRequest.onBeforeRedirect.addListener(onBeforeRedirect, ALL_URLS);
  browser.webRequest.onResponseStarted.addListener(onResponseStarted, ALL_URLS, ['responseHeaders']);
  browser.webRequest.onCompleted.addListener(onCompleted, ALL_URLS);
  browser.webRequest.onErrorOccurred.addListener(onErrorOccurred, ALL_URLS);
  browser.webNavigation.onCommitted.addListener(onCommitted);
  browser.webNavigation.onCompleted.addListener(onNavigationCompleted);
  browser.webNavigation.onErrorOccurred.addListener(onNavigationError);
  registered = browser.tabs.get(tabId).catch(() => undefined);
  return registered;
}

/**
 * Listeners go some time after the last watch: a donated browser is a person's, whose own pages'
 * requests should not wake the worker once no task runs.
 */
function stopListeningLater(): void {
  clearTimeout(lingerTimer);
  lingerTimer = setTimeout(() => {
    if (watched.size > 0 || !listening) return;
    listening = false;
    browser.webRequest.onBeforeRequest.removeListener(onBeforeRequest);
    browser.webRequest.onBeforeRedirect.removeListener(onBeforeRedirect);
    browser.webRequest.onResponseStarted.removeListener(onResponseStarted);
    browser.webRequest.onCompleted.removeListener(onCompleted);
    browser.webRequest.onErrorOccurred.removeListener(onErrorOccurred);
    browser.webNavigation.onCommitted.removeListener(onCommitted);
    browser.webNavigation.onCompleted.removeListener(onNavigationCompleted);
    browser.webNavigation.onErrorOccurred.removeListener(onNavigationError);
  }, LINGER_MS);
}

/** Starts watching a task's tab; one watch per tab at a time. */
export async function watchTabTraffic(tabId: number, guard: AddressGuard): Promise<TabTraffic> {
  const waiters = new Set<() => void>();
  const state: TabState = {
    inFlight: new Set(),
    lastActivityAt: Date.now(),
    response: undefined,
    commits: 0,
    committedUrl: undefined,
    loaded: false,
    failure: undefined,
    guard,
    wake: () => {
      for (const wake of waiters) wake();
    },
  };
  watched.set(tabId, state);
  await listen(tabId);
  return {
    inFlight: () => state.inFlight.size,
    lastActivityAt: () => state.lastActivityAt,
    response: () => state.response,
    commits: () => state.commits,
    committedUrl: () => state.committedUrl,
    loaded: () => state.loaded,
    failure: () => state.failure,
    until(condition, deadline, signal) {
      return new Promise<boolean>((resolve, reject) => {
        const done = (value: boolean | Error) => {
          waiters.delete(check);
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          if (value instanceof Error) reject(value);
          else resolve(value);
        };
        const check = () => condition() && done(true);
        const onAbort = () => done(new PageTaskError('TASK_CANCELLED', 'cancelled'));
        const timer = setTimeout(() => done(condition()), Math.max(0, deadline - Date.now()));
        waiters.add(check);
        signal.addEventListener('abort', onAbort);
        if (signal.aborted) onAbort();
        else check();
      });
    },
    stop() {
      if (watched.get(tabId) === state) watched.delete(tabId);
      waiters.clear();
      if (watched.size === 0) stopListeningLater();
    },
  };
}
