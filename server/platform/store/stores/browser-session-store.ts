import type { Collection, Database, StoredDocument } from '../database';

/** Ended sessions stay listed (`GET /v2/browser?status=destroyed`) this long. */
export const ENDED_SESSION_RETENTION_MS = 24 * 60 * 60_000;

export interface StoredBrowserSession extends StoredDocument {
  /** `_id` is the session id. */
  teamId: string;
  /** `browser` for `POST /v2/browser`; `interact` for a scrape's interaction (its scrape id in `scrapeId`). */
  kind: 'browser' | 'interact';
  scrapeId?: string;
  status: 'active' | 'destroyed';
  cdpUrl: string;
  liveViewUrl: string;
  interactiveLiveViewUrl: string;
  streamWebView: boolean;
  createdAt: Date;
  lastActivity: Date;
  endedAt?: Date;
  /** Why it ended: `deleted`, `ttl`, `idle`, `failed: …`. */
  endReason?: string;
  durationMs?: number;
  creditsBilled?: number;
  /** When the record may go: the end of its TTL while active, a day after it ended. */
  expiresAt: Date;
}

/** The records of browser sessions, running and ended, per team. */
export function createBrowserSessionStore(database: Database) {
  const sessions: Collection<StoredBrowserSession> = database.collection('browser_sessions');

  return {
    async ensureIndexes() {
      await sessions.createIndex({ name: 'team_created', keys: { teamId: 1, createdAt: -1 } });
      await sessions.createIndex({ name: 'expiresAt_ttl', keys: { expiresAt: 1 }, expireAfterSeconds: 0 });
    },

    async put(session: StoredBrowserSession): Promise<void> {
      await sessions.replaceOne({ _id: session._id }, session, { upsert: true });
    },

    async touch(id: string, at: Date): Promise<void> {
      await sessions.updateOne({ _id: id, status: 'active' }, { $set: { lastActivity: at } });
    },

    async finish(
      id: string,
      end: { endedAt: Date; endReason: string; durationMs: number; creditsBilled: number },
    ): Promise<void> {
      await sessions.updateOne(
        { _id: id },
        {
          $set: {
            ...end,
            status: 'destroyed',
            lastActivity: end.endedAt,
            expiresAt: new Date(end.endedAt.getTime() + ENDED_SESSION_RETENTION_MS),
          },
        },
      );
    },

    /** One of the team's sessions; another team's is not found. */
    async get(id: string, teamId: string): Promise<StoredBrowserSession | undefined> {
      return sessions.findOne({ _id: id, teamId });
    },

    async list(teamId: string, status: 'active' | 'destroyed' | undefined, limit = 100) {
      return sessions.find(
        { teamId, ...(status === undefined ? {} : { status }) },
        { sort: { createdAt: -1 }, limit },
      );
    },

    /**
     * Sessions a process left `active` when it died: no process runs them any more. Marked
     * destroyed at start so that lists do not show them running forever.
     */
    async endOrphans(activeIds: ReadonlySet<string>, now = new Date()): Promise<number> {
      const stale = (await sessions.find({ status: 'active', expiresAt: { $lt: now } })).filter(
        (session) => !activeIds.has(session._id),
      );
      for (const session of stale) {
        await sessions.updateOne(
          { _id: session._id, status: 'active' },
          {
            $set: {
              status: 'destroyed',
              endReason: 'lost',
              endedAt: session.expiresAt,
              expiresAt: new Date(now.getTime() + ENDED_SESSION_RETENTION_MS),
            },
          },
        );
      }
      return stale.length;
    },

    purgeExpired: async (now = new Date()) =>
      (await sessions.deleteMany({ status: 'destroyed', expiresAt: { $lt: now } })).deleted,
  };
}

export type BrowserSessionStore = ReturnType<typeof createBrowserSessionStore>;
