import { record } from 'rrweb';
import { browser } from 'wxt/browser';
import {
  MAX_REPLAY_BATCH_CHARS,
  MAX_REPLAY_BATCH_EVENTS,
  REPLAY_PORT_NAME,
} from '../../shared/protocol/session-replay-limits';
import type { ReplayEvent } from '../../shared/protocol/session-replay';

/** Events wait at most this long in the page before they go to the worker. */
const FLUSH_MS = 500;

/** Set on the world's global once a recorder runs in this document (it may be injected twice). */
const RUNNING = Symbol.for('tabhive.replay-recorder');

/**
 * Records this document with rrweb and posts its events, in batches, to the extension's worker
 * over a port (extension/sessions/replay-recording.ts numbers the pages and forwards them to the
 * server). It runs in the extension's isolated world of a session's tab only: the page's scripts
 * can neither see nor stop it. It stops when the worker closes the port (the session ended).
 *
 * Being in an isolated world, it sees the DOM, input, scrolls and mouse; stylesheet rules a page's
 * script changes through the CSSOM (insertRule) and canvas drawing are not recorded.
 */
export function startReplayRecorder(): void {
  const world = globalThis as { [RUNNING]?: boolean };
  if (world[RUNNING] === true) return;
  world[RUNNING] = true;

  const port = browser.runtime.connect({ name: REPLAY_PORT_NAME });
  let open = true;
  let buffer: ReplayEvent[] = [];
  let bufferChars = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (!open || buffer.length === 0) return;
    const events = buffer;
    buffer = [];
    bufferChars = 0;
    try {
      port.postMessage({ events });
    } catch {
      open = false;
    }
  };

  const stopRecording = record({
    emit(event) {
      if (!open) return;
      const chars = JSON.stringify(event).length;
      // One event larger than a batch may carry (a huge page's snapshot) cannot be sent.
      if (chars > MAX_REPLAY_BATCH_CHARS) return;
      if (bufferChars + chars > MAX_REPLAY_BATCH_CHARS) flush();
      buffer.push(event as ReplayEvent);
      bufferChars += chars;
      if (buffer.length >= MAX_REPLAY_BATCH_EVENTS) flush();
      else timer ??= setTimeout(flush, FLUSH_MS);
    },
  });

  // The document going away takes what it still holds along first.
  addEventListener('pagehide', flush);
  port.onDisconnect.addListener(() => {
    open = false;
    clearTimeout(timer);
    stopRecording?.();
    removeEventListener('pagehide', flush);
  });
}
