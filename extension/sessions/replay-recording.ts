import { browser, type Browser } from 'wxt/browser';
import type { SessionEvent } from '../../shared/protocol/messages';
import {
  MAX_REPLAY_BATCH_CHARS,
  MAX_REPLAY_PAGES,
  REPLAY_PORT_NAME,
  ReplayBatch,
} from '../../shared/protocol/session-replay';

/** The recorder's script, built from extension/entrypoints/replay-recorder.ts. */
const RECORDER_FILE = '/replay-recorder.js';
/** How long a session's first command waits for the recorder to start on the page already there. */
const FIRST_INJECTION_WAIT_MS = 3_000;

type Port = Browser.runtime.Port;

interface Recording {
  /** A page's recorder connected: its port, until it or the recording ends. */
  connected(port: Port): void;
}

/** Recorded tabs by id; the one onConnect listener finds a page's recording here. */
const recordings = new Map<number, Recording>();
let listening = false;

function listenForRecorders() {
  if (listening) return;
  listening = true;
  browser.runtime.onConnect.addListener((port) => {
    if (port.name !== REPLAY_PORT_NAME) return;
    const tabId = port.sender?.tab?.id;
    const recording = tabId === undefined ? undefined : recordings.get(tabId);
    // Only a session tab's top document records; anything else that asks is turned away.
    if (recording === undefined || port.sender?.frameId !== 0) port.disconnect();
    else recording.connected(port);
  });
}

/**
 * Records a session tab for the session's replay: every document the tab's top frame loads (on
 * http or https) gets rrweb's recorder (/replay-recorder.js, extension/page/replay-recorder.ts) in
 * the extension's isolated world, and each document's events go to the server as `replay` session
 * events, numbered by page in the order the pages started. This tab only: in a donated browser
 * the person's own tabs are never recorded. `started` settles once the page already in the tab
 * (an interaction's) records, so that the session's first command is in its replay.
 */
export function recordSessionTab({ tabId, emit }: { tabId: number; emit(event: SessionEvent): void }): {
  stop(): void;
  started: Promise<void>;
} {
  listenForRecorders();
  const ports = new Set<Port>();
  let pages = 0;
  let stopped = false;

  const inject = async () => {
    if (stopped) return;
    await browser.scripting
      .executeScript({ target: { tabId, frameIds: [0] }, files: [RECORDER_FILE], injectImmediately: true })
      // A page the extension may not script (an error page, the Web Store) has no replay.
      .catch(() => undefined);
  };

  const onCommitted = (details: { tabId: number; frameId: number; url: string }) => {
    if (details.tabId === tabId && details.frameId === 0 && /^https?:/i.test(details.url)) void inject();
  };

  recordings.set(tabId, {
    connected(port) {
      if (stopped || pages >= MAX_REPLAY_PAGES) {
        port.disconnect();
        return;
      }
      const pageId = pages++;
      const pageUrl = (port.sender?.url ?? '').slice(0, 8192);
      ports.add(port);
      port.onDisconnect.addListener(() => ports.delete(port));
      port.onMessage.addListener((message: unknown) => {
        const batch = ReplayBatch.safeParse(message);
        if (stopped || !batch.success) return;
        if (JSON.stringify(batch.data.events).length > MAX_REPLAY_BATCH_CHARS) return;
        emit({ kind: 'replay', pageId, pageUrl, events: batch.data.events });
      });
    },
  });
  browser.webNavigation.onCommitted.addListener(onCommitted);
  // The page already there (an interaction opens the scrape's page before its commands).
  const first = browser.tabs
    .get(tabId)
    .then((tab) => (tab.url !== undefined && /^https?:/i.test(tab.url) ? inject() : undefined))
    .catch(() => undefined);
  const started = Promise.race([
    first,
    new Promise<void>((resolve) => setTimeout(resolve, FIRST_INJECTION_WAIT_MS)),
  ]);

  const stop = () => {
    if (stopped) return;
    stopped = true;
    browser.webNavigation.onCommitted.removeListener(onCommitted);
    recordings.delete(tabId);
    for (const port of ports) port.disconnect();
    ports.clear();
  };
  return { stop, started };
}
