import type { Collection, Database, StoredDocument } from '../database';
import { ENDED_SESSION_RETENTION_MS } from './browser-session-store';

/**
 * A replay chunk outlives its write by the longest a session runs plus an ended session's
 * retention, so it goes at most an hour after the session's record (which the routes read first:
 * a replay without its session is never served).
 */
export const REPLAY_RETENTION_MS = 60 * 60_000 + ENDED_SESSION_RETENTION_MS;

/** One batch of rrweb events of one page of a browser session. */
export interface StoredReplayChunk extends StoredDocument {
  /** `<sessionId>:<pageId>:<seq>`, zero-padded: written once. */
  sessionId: string;
  pageId: number;
  pageUrl: string;
  seq: number;
  /** The first and last event's timestamps (ms since the epoch). */
  firstAt: number;
  lastAt: number;
  /** The events as JSON: rrweb's attribute names may hold characters a document key may not. */
  eventsJson: string;
  expiresAt: Date;
}

/** What one page of a session's replay holds. */
export interface ReplayPageSummary {
  pageId: number;
  pageUrl: string;
  firstAt: number;
  lastAt: number;
}

/** Browser sessions' replays (rrweb events), in chunks per page, kept with the session. */
export function createSessionReplayStore(database: Database) {
  const chunks: Collection<StoredReplayChunk> = database.collection('browser_session_replays');

  return {
    async ensureIndexes() {
      await chunks.createIndex({ name: 'session_page_seq', keys: { sessionId: 1, pageId: 1, seq: 1 } });
      await chunks.createIndex({ name: 'expiresAt_ttl', keys: { expiresAt: 1 }, expireAfterSeconds: 0 });
    },

    async append(chunk: Omit<StoredReplayChunk, '_id' | 'expiresAt'>, now = new Date()): Promise<void> {
      const pad = (n: number, width: number) => String(n).padStart(width, '0');
      await chunks.insertOne({
        ...chunk,
        _id: `${chunk.sessionId}:${pad(chunk.pageId, 3)}:${pad(chunk.seq, 7)}`,
        expiresAt: new Date(now.getTime() + REPLAY_RETENTION_MS),
      });
    },

    /** The session's pages, in order, with the span of their events. */
    async pages(sessionId: string): Promise<ReplayPageSummary[]> {
      const found = await chunks.find({ sessionId }, { sort: { pageId: 1, seq: 1 } });
      const pages = new Map<number, ReplayPageSummary>();
      for (const chunk of found) {
        const page = pages.get(chunk.pageId);
        if (page === undefined) pages.set(chunk.pageId, { ...chunk });
        else {
          page.firstAt = Math.min(page.firstAt, chunk.firstAt);
          page.lastAt = Math.max(page.lastAt, chunk.lastAt);
        }
      }
      return [...pages.values()].map(({ pageId, pageUrl, firstAt, lastAt }) => ({
        pageId,
        pageUrl,
        firstAt,
        lastAt,
      }));
    },

    /** One page's chunks, in order. */
    page: (sessionId: string, pageId: number) => chunks.find({ sessionId, pageId }, { sort: { seq: 1 } }),

    async purgeExpired(now = new Date()) {
      return (await chunks.deleteMany({ expiresAt: { $lt: now } })).deleted;
    },
  };
}

export type SessionReplayStore = ReturnType<typeof createSessionReplayStore>;
