import type { BrowserHub } from '../../browsers/hub';
import type { Log } from '../../platform/log';
import type { SessionReplayStore } from '../../platform/store';
import { MAX_REPLAY_BATCH_CHARS, MAX_REPLAY_SESSION_CHARS } from '../../../shared/protocol/session-replay';

/** Sessions whose counts this process keeps at once; the oldest goes first (sessions live an hour at most). */
const MAX_TRACKED_SESSIONS = 2_000;

interface Tracked {
  chars: number;
  /** The next chunk's number per page. */
  seq: Map<number, number>;
  /** Writes of this session, one after another. */
  writing: Promise<void>;
  full: boolean;
}

/**
 * Stores the replay batches the browsers send (`replay` session events, which the hub takes only
 * from the browser that runs the session's task) in the replay store, per session and page, up to
 * `maxSessionChars` of events per session: later batches are dropped and logged once.
 * Returns the function that stops listening.
 */
export function createReplayRecorder({
  hub,
  store,
  log,
  maxSessionChars = MAX_REPLAY_SESSION_CHARS,
}: {
  hub: Pick<BrowserHub, 'onSessionMessage'>;
  store: SessionReplayStore;
  log: Log;
  /** What one session may store (MAX_REPLAY_SESSION_CHARS); tests pass less. */
  maxSessionChars?: number;
}): { stop(): void } {
  const tracked = new Map<string, Tracked>();

  const trackedOf = (sessionId: string): Tracked => {
    let entry = tracked.get(sessionId);
    if (entry === undefined) {
      entry = { chars: 0, seq: new Map(), writing: Promise.resolve(), full: false };
      tracked.set(sessionId, entry);
      if (tracked.size > MAX_TRACKED_SESSIONS) tracked.delete(tracked.keys().next().value as string);
    }
    return entry;
  };

  const unsubscribe = hub.onSessionMessage((message) => {
    if (message.type !== 'session-event' || message.event.kind !== 'replay') return;
    const { pageId, pageUrl, events } = message.event;
    const sessionId = message.taskId;
    const eventsJson = JSON.stringify(events);
    const entry = trackedOf(sessionId);
    if (eventsJson.length > MAX_REPLAY_BATCH_CHARS) return;
    if (entry.chars + eventsJson.length > maxSessionChars) {
      if (!entry.full) log.warn('session replay full; later events are not kept', { sessionId });
      entry.full = true;
      return;
    }
    entry.chars += eventsJson.length;
    const seq = entry.seq.get(pageId) ?? 0;
    entry.seq.set(pageId, seq + 1);
    const timestamps = events.map((event) => event.timestamp);
    entry.writing = entry.writing.then(() =>
      store
        .append({
          sessionId,
          pageId,
          pageUrl,
          seq,
          firstAt: Math.min(...timestamps),
          lastAt: Math.max(...timestamps),
          eventsJson,
        })
        .catch((err: unknown) =>
          log.warn('could not store a session replay batch', { sessionId, pageId, error: String(err) }),
        ),
    );
  });

  return { stop: unsubscribe };
}
