import type { Browser } from 'wxt/browser';
import { assertCdpMethodAllowed } from './cdp-allowlist';

/** The slice of chrome.debugger we use. The polyfill passes `debugger` through untouched. */
type DebuggerApi = typeof Browser.debugger;

function debuggerApi(): DebuggerApi {
  // chrome.debugger directly: webextension-polyfill has no debugger namespace of its own.
  return (globalThis as unknown as { chrome: { debugger: DebuggerApi } }).chrome.debugger;
}

/** The protocol version chrome.debugger.attach asks for; every current Chromium speaks it. */
const CDP_VERSION = '1.3';

export type CdpEventListener = (method: string, params: Record<string, unknown>) => void;

/** One tab's DevTools protocol session: a task's own, or a pooled tab's (task-tab-pool.ts). */
export interface CdpSession {
  send<T = Record<string, unknown>>(method: string, params?: Record<string, unknown>): Promise<T>;
  /** Adds a listener; the function returned removes it. */
  onEvent(listener: CdpEventListener): () => void;
  /** Resolves when the session ended by itself (tab closed, user cancelled the infobar). */
  readonly detached: Promise<string>;
  /** Ends the session; `detached` resolves with `reason`. */
  detach(reason?: string): Promise<void>;
}

export async function attachCdp(tabId: number): Promise<CdpSession> {
  const api = debuggerApi();
  const target = { tabId };
  await api.attach(target, CDP_VERSION);

  const listeners = new Set<CdpEventListener>();
  let resolveDetached: (reason: string) => void = () => {};
  const detached = new Promise<string>((resolve) => (resolveDetached = resolve));
  let attached = true;

  const onEvent = (source: { tabId?: number }, method: string, params?: object) => {
    if (source.tabId !== tabId) return;
    for (const listener of listeners) listener(method, (params ?? {}) as Record<string, unknown>);
  };
  const onDetach = (source: { tabId?: number }, reason: string) => {
    if (source.tabId !== tabId) return;
    attached = false;
    cleanup();
    resolveDetached(reason);
  };
  const cleanup = () => {
    api.onEvent.removeListener(onEvent);
    api.onDetach.removeListener(onDetach);
  };
  api.onEvent.addListener(onEvent);
  api.onDetach.addListener(onDetach);

  return {
    async send<T>(method: string, params: Record<string, unknown> = {}) {
      assertCdpMethodAllowed(method);
      return (await api.sendCommand(target, method, params)) as T;
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    detached,
    async detach(reason = 'detached by task') {
      cleanup();
      if (!attached) return;
      attached = false;
      try {
        await api.detach(target);
      } catch {
        // The tab is already gone, which detaches too.
      }
      resolveDetached(reason);
    },
  };
}

/** A task's view of a session it borrows: its event listeners go when the task ends. */
export interface BorrowedCdpSession extends CdpSession {
  /** Drops the listeners this view added; the session itself stays attached. */
  release(): void;
}

/**
 * A pooled tab's session outlives its tasks: each task listens through a view of its own, so
 * that no listener of a finished task (page watch, address guard) sees the next task's events.
 * `detach` on the view only releases it.
 */
export function borrowCdp(session: CdpSession): BorrowedCdpSession {
  const removers: Array<() => void> = [];
  return {
    send: (method, params) => session.send(method, params),
    onEvent(listener) {
      const remove = session.onEvent(listener);
      removers.push(remove);
      return remove;
    },
    detached: session.detached,
    release() {
      for (const remove of removers.splice(0)) remove();
    },
    async detach() {
      this.release();
    },
  };
}
