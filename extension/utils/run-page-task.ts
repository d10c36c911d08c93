import type { PageCapture, TaskMessage } from '../../shared/protocol/messages';
import { attachCdp, type CdpSession } from './cdp-session';
import { capturePage, type InPageCapture } from './capture-page';
import { PageTaskError, navigationError } from './page-task-error';
import { taskJournal } from './task-journal';
import { closeTaskWindow, openTaskWindow } from './task-window';

/**
 * After `load`, how long a page may keep the network busy before we capture anyway. Pages with
 * long polling, analytics beacons or open sockets never reach network idle.
 */
export const NETWORK_IDLE_CAP_MS = 5_000;
/** Kept back from the server's budget so that the result arrives before the server gives up. */
export const RESULT_MARGIN_MS = 300;

interface DocumentResponse {
  requestId: string;
  status: number;
  contentType: string | undefined;
}

/** Lifecycle state of the tab's main frame, fed by CDP events, with waiters for conditions on it. */
function createPageWatch(cdp: CdpSession, mainFrameId: string) {
  const lifecycle = new Set<string>();
  let response: DocumentResponse | undefined;
  const waiters = new Set<() => void>();

  cdp.onEvent((method, params) => {
    if (method === 'Page.lifecycleEvent' && params.frameId === mainFrameId) {
      if (params.name === 'init') lifecycle.clear();
      lifecycle.add(String(params.name));
    } else if (
      method === 'Network.responseReceived' &&
      params.type === 'Document' &&
      params.frameId === mainFrameId
    ) {
      const r = params.response as { status: number; mimeType?: string; headers?: Record<string, string> };
      const headerType = Object.entries(r.headers ?? {}).find(
        ([name]) => name.toLowerCase() === 'content-type',
      )?.[1];
      response = {
        requestId: String(params.requestId),
        status: r.status,
        contentType: headerType ?? r.mimeType,
      };
    }
    for (const wake of waiters) wake();
  });

  return {
    lifecycle,
    response: () => response,
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

/** Rejects with a timeout when `promise` has not settled by `deadline`. */
function beforeDeadline<T>(promise: Promise<T>, deadline: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new PageTaskError('SCRAPE_TIMEOUT', 'Scrape timed out')),
      Math.max(0, deadline - Date.now()),
    );
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

const isHtml = (contentType: string | undefined) =>
  contentType === undefined || /^\s*(text\/html|application\/xhtml\+xml)/i.test(contentType);

async function responseBodyText(cdp: CdpSession, requestId: string): Promise<string | undefined> {
  try {
    const { body, base64Encoded } = await cdp.send<{ body: string; base64Encoded: boolean }>(
      'Network.getResponseBody',
      { requestId },
    );
    if (!base64Encoded) return body;
    const bytes = Uint8Array.from(atob(body), (char) => char.charCodeAt(0));
    return new TextDecoder().decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Runs one page task: opens the URL in a window of its own, waits for load and then network idle
 * (both bounded by the task's budget), captures, and always closes the window.
 */
export async function runPageTask(task: TaskMessage, signal: AbortSignal): Promise<PageCapture> {
  const deadline = Date.now() + task.timeoutMs - RESULT_MARGIN_MS;
  await taskJournal.record(task.taskId);
  const { windowId, tabId } = await openTaskWindow();
  await taskJournal.record(task.taskId, windowId);
  let cdp: CdpSession | undefined;
  try {
    cdp = await attachCdp(tabId);
    const { frameTree } = await cdp.send<{ frameTree: { frame: { id: string } } }>('Page.getFrameTree');
    const mainFrameId = frameTree.frame.id;
    const watch = createPageWatch(cdp, mainFrameId);
    await Promise.all([
      cdp.send('Page.enable'),
      cdp.send('Network.enable'),
      cdp.send('Page.setLifecycleEventsEnabled', { enabled: true }),
    ]);
    watch.lifecycle.clear();

    const navigation = await beforeDeadline(
      cdp.send<{ errorText?: string }>('Page.navigate', { url: task.spec.url }),
      deadline,
    );
    if (navigation.errorText) throw navigationError(navigation.errorText);

    const loaded = await watch.until(() => watch.lifecycle.has('load'), deadline, signal);
    if (!loaded) throw new PageTaskError('SCRAPE_TIMEOUT', 'Scrape timed out');
    await watch.until(
      () => watch.lifecycle.has('networkIdle'),
      Math.min(deadline, Date.now() + NETWORK_IDLE_CAP_MS),
      signal,
    );
    if (task.spec.waitForMs > 0) {
      await watch.until(() => false, Math.min(deadline, Date.now() + task.spec.waitForMs), signal);
    }

    const { executionContextId } = await cdp.send<{ executionContextId: number }>(
      'Page.createIsolatedWorld',
      {
        frameId: mainFrameId,
        worldName: 'tabhive-capture',
      },
    );
    const evaluation = await beforeDeadline(
      cdp.send<{ result: { value?: InPageCapture }; exceptionDetails?: { text: string } }>(
        'Runtime.evaluate',
        {
          expression: `(${capturePage.toString()})()`,
          contextId: executionContextId,
          returnByValue: true,
        },
      ),
      deadline,
    );
    const page = evaluation.result.value;
    if (evaluation.exceptionDetails !== undefined || page === undefined) {
      throw new PageTaskError(
        'BROWSER_ERROR',
        `capture failed: ${evaluation.exceptionDetails?.text ?? 'no value'}`,
      );
    }

    const response = watch.response();
    const contentType = response?.contentType ?? page.documentContentType;
    // A JSON or text document is shown by Chromium wrapped in HTML; callers want what was sent.
    const body =
      !isHtml(contentType) && response ? await responseBodyText(cdp, response.requestId) : undefined;
    return {
      url: page.url,
      statusCode: response?.status ?? 0,
      contentType,
      rawHtml: body ?? page.rawHtml,
      renderedHtml: page.renderedHtml,
    };
  } finally {
    await cdp?.detach();
    await closeTaskWindow(windowId);
    await taskJournal.remove(task.taskId);
  }
}
