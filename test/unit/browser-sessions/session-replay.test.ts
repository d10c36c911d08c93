import { describe, expect, it } from 'vitest';
import {
  decodeBrowserMessage,
  type SessionEventMessage,
  type SessionReplyMessage,
} from '../../../shared/protocol/messages';
import { MAX_REPLAY_BATCH_EVENTS, MAX_REPLAY_PAGES } from '../../../shared/protocol/session-replay';
import { TabhiveError } from '../../../server/platform/errors';
import { silentLog } from '../../../server/platform/log/log';
import { createReplayRecorder } from '../../../server/products/browser-sessions/replay-recorder';
import { createReplayService } from '../../../server/products/browser-sessions/replay-service';
import { useEmbeddedStores } from '../../helpers/use-embedded-stores';

/**
 * Session replays between the hub and the routes: the `replay` session event as the hub decodes
 * it, the recorder that stores its batches per page (bounded per session) in a real embedded
 * store, and the service that serves them in Firecrawl's shape to the session's team only.
 */

const embedded = useEmbeddedStores();
// Recent: the store does not hand out a record past its expiresAt.
const START = Date.now() - 60_000;

type Listener = (message: SessionReplyMessage | SessionEventMessage) => void;

/** The hub's session message feed, which the recorder subscribes to; messages go through the hub's decoder. */
function sessionFeed() {
  const listeners = new Set<Listener>();
  return {
    hub: {
      onSessionMessage(listener: Listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
    send(raw: unknown) {
      const decoded = decodeBrowserMessage(JSON.stringify(raw));
      if (!decoded.ok) throw new Error(decoded.error);
      const message = decoded.message;
      if (message.type !== 'session-event') throw new Error('not a session event');
      for (const listener of listeners) listener(message);
    },
  };
}

const replayMessage = (taskId: string, pageId: number, pageUrl: string, events: unknown[]) => ({
  type: 'session-event',
  taskId,
  event: { kind: 'replay', pageId, pageUrl, events },
});

async function addSession(id: string, teamId: string) {
  await embedded.stores.browserSessions.put({
    _id: id,
    teamId,
    kind: 'browser',
    status: 'active',
    cdpUrl: `ws://x/v2/browser/${id}/cdp`,
    liveViewUrl: 'http://x/live/a',
    interactiveLiveViewUrl: 'http://x/live/b',
    streamWebView: true,
    createdAt: new Date(START),
    lastActivity: new Date(START),
    expiresAt: new Date(START + 3_600_000),
  });
}

const rejection = async (promise: Promise<unknown>) => {
  const err = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(err).toBeInstanceOf(TabhiveError);
  return err as TabhiveError;
};

describe('the replay session event at the hub edge', () => {
  const event = { type: 2, data: { node: {} }, timestamp: START };

  it('takes a batch of rrweb events of one page', () => {
    expect(decodeBrowserMessage(JSON.stringify(replayMessage('t', 0, 'https://a.test/', [event]))).ok).toBe(
      true,
    );
  });

  it('refuses a page beyond the bound, too many events, an event without a time, and no events', () => {
    for (const bad of [
      replayMessage('t', MAX_REPLAY_PAGES, 'https://a.test/', [event]),
      replayMessage(
        't',
        0,
        'https://a.test/',
        Array.from({ length: MAX_REPLAY_BATCH_EVENTS + 1 }, () => event),
      ),
      replayMessage('t', 0, 'https://a.test/', [{ type: 3, data: {} }]),
      replayMessage('t', 0, 'https://a.test/', []),
    ]) {
      expect(decodeBrowserMessage(JSON.stringify(bad)).ok).toBe(false);
    }
  });
});

describe('session replays stored and served', () => {
  it("stores each page's batches in order and serves them in Firecrawl's shape, to the session's team only", async () => {
    await addSession('s-1', 'team-a');
    const feed = sessionFeed();
    const recorder = createReplayRecorder({
      hub: feed.hub,
      store: embedded.stores.sessionReplays,
      log: silentLog,
    });
    const replays = createReplayService({
      sessions: embedded.stores.browserSessions,
      replays: embedded.stores.sessionReplays,
    });
    feed.send(
      replayMessage('s-1', 0, 'https://a.test/one', [
        { type: 4, data: { href: 'https://a.test/one' }, timestamp: START + 1_000 },
        { type: 2, data: { text: 'FIRST' }, timestamp: START + 1_010 },
      ]),
    );
    feed.send(
      replayMessage('s-1', 0, 'https://a.test/one', [{ type: 3, data: { n: 1 }, timestamp: START + 2_000 }]),
    );
    feed.send(
      replayMessage('s-1', 1, 'https://a.test/two', [
        { type: 2, data: { text: 'SECOND' }, timestamp: START + 5_000 },
      ]),
    );

    await expect.poll(async () => (await replays.pages('team-a', 's-1', 'browser')).pageCount).toBe(2);
    await expect.poll(async () => (await replays.page('team-a', 's-1', '0')).events.length).toBe(3);
    expect(await replays.pages('team-a', 's-1', 'interact')).toEqual({
      success: true,
      pageCount: 2,
      pages: [
        {
          pageId: '0',
          url: '/v2/interact/s-1/replay/0',
          pageUrl: 'https://a.test/one',
          startTimeMs: 1_000,
          endTimeMs: 2_000,
        },
        {
          pageId: '1',
          url: '/v2/interact/s-1/replay/1',
          pageUrl: 'https://a.test/two',
          startTimeMs: 5_000,
          endTimeMs: 5_000,
        },
      ],
    });
    const first = await replays.page('team-a', 's-1', '0');
    expect(first).toMatchObject({
      success: true,
      pageId: '0',
      pageUrl: 'https://a.test/one',
      startTimeMs: 1_000,
    });
    expect(first.events.map((item) => item.type)).toEqual([4, 2, 3]);

    expect((await rejection(replays.pages('team-b', 's-1', 'browser'))).kind).toBe('not-found');
    expect((await rejection(replays.page('team-b', 's-1', '0'))).kind).toBe('not-found');
    expect((await rejection(replays.page('team-a', 's-1', '7'))).kind).toBe('not-found');
    expect((await rejection(replays.page('team-a', 's-1', '../0'))).kind).toBe('invalid-input');
    recorder.stop();
  });

  it('keeps at most its bound per session and drops what comes after', async () => {
    await addSession('s-2', 'team-a');
    const feed = sessionFeed();
    const recorder = createReplayRecorder({
      hub: feed.hub,
      store: embedded.stores.sessionReplays,
      log: silentLog,
      maxSessionChars: 400,
    });
    const replays = createReplayService({
      sessions: embedded.stores.browserSessions,
      replays: embedded.stores.sessionReplays,
    });
    const batch = (text: string, at: number) =>
      replayMessage('s-2', 0, 'https://a.test/', [
        { type: 3, data: { text: text.padEnd(120, '.') }, timestamp: at },
      ]);
    feed.send(batch('A', START + 1));
    feed.send(batch('B', START + 2));
    feed.send(batch('C', START + 3));
    feed.send(batch('D', START + 4));
    await expect
      .poll(async () => (await replays.page('team-a', 's-2', '0').catch(() => undefined))?.events.length)
      .toBe(2);
    const stored = JSON.stringify((await replays.page('team-a', 's-2', '0')).events);
    expect(stored).toContain('A..');
    expect(stored).toContain('B..');
    expect(stored).not.toContain('C..');
    expect(stored).not.toContain('D..');
    recorder.stop();
  });
});
