import { pickBlockSignalHeaders } from '../../shared/block-pages/block-signal-headers';
import type { CdpSession } from './cdp-session';
import { PageTaskError } from '../task-kit/page-task-error';

export interface DocumentResponse {
  requestId: string;
  url: string;
  status: number;
  contentType: string | undefined;
  /** Chromium's verdict on the connection: `insecure` when a certificate error was let through. */
  securityState: string | undefined;
  /** The headers that tell an anti-bot system answered (block-signal-headers.ts). */
  blockSignals: Record<string, string>;
}

export type PageWatch = ReturnType<typeof createPageWatch>;

/**
 * How long the tab must have no request in flight to count as settled. Chromium's own
 * `networkIdle` waits 500 ms, which was most of a page's time in a task (BENCHMARKS.md#measured-facts); a page
 * that renders from a fetch and a short timer is done well within this.
 */
export const NETWORK_QUIET_MS = 250;

/** Lifecycle state of the tab's main frame, fed by CDP events, with waiters for conditions on it. */
export function createPageWatch(cdp: CdpSession, mainFrameId: string) {
  const lifecycle = new Set<string>();
  let response: DocumentResponse | undefined;
  /** Between Page.frameStartedLoading and frameStoppedLoading of the main frame (clicks may navigate). */
  let loading = false;
  const waiters = new Set<() => void>();
  /** Requests of the tab (any frame) not finished yet, and when the last one started or ended. */
  const inFlight = new Set<string>();
  let lastNetworkAt = Date.now();
  let quietTimer: ReturnType<typeof setTimeout> | undefined;
  const wakeAll = () => {
    for (const wake of waiters) wake();
  };

  cdp.onEvent((method, params) => {
    if (method === 'Network.requestWillBeSent') {
      inFlight.add(String(params.requestId));
      lastNetworkAt = Date.now();
    } else if (method === 'Network.loadingFinished' || method === 'Network.loadingFailed') {
      inFlight.delete(String(params.requestId));
      lastNetworkAt = Date.now();
      if (inFlight.size === 0) {
        // Nothing else may happen on the network: a timer checks the waiters when the quiet is long enough.
        clearTimeout(quietTimer);
        quietTimer = setTimeout(wakeAll, NETWORK_QUIET_MS + 5);
      }
    }
    if (method === 'Page.lifecycleEvent' && params.frameId === mainFrameId) {
      if (params.name === 'init') lifecycle.clear();
      lifecycle.add(String(params.name));
    } else if (method === 'Page.frameStartedLoading' && params.frameId === mainFrameId) {
      loading = true;
    } else if (method === 'Page.frameStoppedLoading' && params.frameId === mainFrameId) {
      loading = false;
    } else if (
      method === 'Network.responseReceived' &&
      params.type === 'Document' &&
      params.frameId === mainFrameId
    ) {
      const r = params.response as {
        url: string;
        status: number;
        mimeType?: string;
        headers?: Record<string, string>;
        securityState?: string;
      };
      const headerType = Object.entries(r.headers ?? {}).find(
        ([name]) => name.toLowerCase() === 'content-type',
      )?.[1];
      response = {
        requestId: String(params.requestId),
        url: r.url,
        status: r.status,
        contentType: headerType ?? r.mimeType,
        securityState: r.securityState,
        blockSignals: pickBlockSignalHeaders(Object.entries(r.headers ?? {})),
      };
    }
    wakeAll();
  });

  return {
    lifecycle,
    response: () => response,
    loading: () => loading,
    /** A request of the tab (any frame) is in flight. */
    busy: () => inFlight.size > 0,
    /** No request in flight for NETWORK_QUIET_MS. */
    networkQuiet: () => inFlight.size === 0 && Date.now() - lastNetworkAt >= NETWORK_QUIET_MS,
    /** Resolves true once `condition` holds, false when `deadline` passes first. */
    until(condition: () => boolean, deadline: number, signal: AbortSignal): Promise<boolean> {
      return new Promise<boolean>((resolve, reject) => {
        const finish = (value: boolean | Error) => {
          waiters.delete(check);
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          if (value instanceof Error) reject(value);
          else resolve(value);
        };
        const check = () => condition() && finish(true);
        const onAbort = () => finish(new PageTaskError('TASK_CANCELLED', 'cancelled'));
        const timer = setTimeout(() => finish(false), Math.max(0, deadline - Date.now()));
        waiters.add(check);
        signal.addEventListener('abort', onAbort);
        if (signal.aborted) onAbort();
        else check();
      });
    },
  };
}
