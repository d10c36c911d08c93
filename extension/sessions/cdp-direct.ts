import type { Browser } from 'wxt/browser';

/** Sends one DevTools protocol command to a tab whose debugger a session already attached. */
export type DirectCdp = (method: string, params?: Record<string, unknown>) => Promise<unknown>;

type DebuggerApi = typeof Browser.debugger;

/**
 * The live view's and the relay's own way to the tab, past the task allowlist
 * (debugger/cdp-allowlist.ts), which keeps covering what Tabhive's own tasks send. Callers check
 * their commands first: the live commands send fixed methods, the relay goes through
 * cdp-relay-allowlist.ts.
 */
export function directCdp(tabId: number): DirectCdp {
  // chrome.debugger directly: webextension-polyfill has no debugger namespace of its own.
  const api = (globalThis as unknown as { chrome: { debugger: DebuggerApi } }).chrome.debugger;
  return async (method, params = {}) => {
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
