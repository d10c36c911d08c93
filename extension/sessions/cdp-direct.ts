import type { Browser } from 'wxt/browser';
import { RELAY_ALLOWED_METHODS } from './cdp-relay-methods';

/** Sends one DevTools protocol command to a tab whose debugger a session already attached. */
export type DirectCdp = (method: string, params?: Record<string, unknown>) => Promise<unknown>;

type DebuggerApi = typeof Browser.debugger;

/** What the live view sends on its own (its screencast, the relay's look at the history). */
const LIVE_VIEW_OWN_METHODS = [
  'Page.startScreencast',
  'Page.stopScreencast',
  'Page.screencastFrameAck',
  'Page.getNavigationHistory',
];

/** Every method that may go this way: the relay's allowlist and the live view's own. */
export const DIRECT_METHODS: ReadonlySet<string> = new Set([
  ...RELAY_ALLOWED_METHODS,
  ...LIVE_VIEW_OWN_METHODS,
]);

/**
 * The live view's and the relay's own way to the tab, past the task allowlist
 * (debugger/cdp-allowlist.ts), which keeps covering what Tabhive's own tasks send. Callers check
 * their commands first (live-command-runner.ts sends every caller's command through
 * cdp-relay-allowlist.ts, parameters included); this refuses any other method anyway, so that no
 * path added later reaches chrome.debugger with a method nobody allowed.
 */
export function directCdp(tabId: number): DirectCdp {
  // chrome.debugger directly: webextension-polyfill has no debugger namespace of its own.
  const api = (globalThis as unknown as { chrome: { debugger: DebuggerApi } }).chrome.debugger;
  return async (method, params = {}) => {
    if (!DIRECT_METHODS.has(method)) throw new Error(`${method} is not on the live view's allowlist`);
    try {
      return await api.sendCommand({ tabId }, method, params);
    } catch (err) {
      throw new Error(cdpErrorMessage(err), { cause: err });
    }
  };
}

/**
 * chrome.debugger rejects with the protocol's error object as JSON text
 * (`{"code":-32000,"message":"No node with given id found"}`); callers want the message.
 */
export function cdpErrorMessage(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && 'message' in parsed) {
      const { message } = parsed as { message: unknown };
      if (typeof message === 'string') return message;
    }
  } catch {
    // Not JSON: the text is the message (a detached tab, a closed target).
  }
  return text;
}
