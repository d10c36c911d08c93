import type { Collection, Database, StoredDocument } from '../database';

export interface RateWindow extends StoredDocument {
  /** `_id` is `<teamId>:<window start in ms>`: one counter per team and minute. */
  teamId: string;
  count: number;
  expiresAt: Date;
}

/** Length of a rate-limit window. */
export const RATE_WINDOW_MS = 60_000;

/**
 * Per-team request counters in fixed one-minute windows, shared by every instance on the same
 * database (the `RateLimiterMongo` idea: one upserting `$inc` per request, no Redis).
 */
export function createRateWindowStore(database: Database) {
  const windows: Collection<RateWindow> = database.collection('rate_windows');

  return {
    async ensureIndexes() {
      await windows.createIndex({ name: 'expiresAt_ttl', keys: { expiresAt: 1 }, expireAfterSeconds: 0 });
    },

    /** Counts one request of the team; returns the count in the current window and when it ends. */
    async hit(teamId: string, now = new Date()): Promise<{ count: number; resetsAt: Date }> {
      const start = Math.floor(now.getTime() / RATE_WINDOW_MS) * RATE_WINDOW_MS;
      const resetsAt = new Date(start + RATE_WINDOW_MS);
      const window = await windows.findOneAndUpdate(
        { _id: `${teamId}:${start}` },
        { $inc: { count: 1 }, $setOnInsert: { teamId, expiresAt: new Date(start + 2 * RATE_WINDOW_MS) } },
        { upsert: true },
      );
      return { count: window?.count ?? 1, resetsAt };
    },

    async purgeExpired(now = new Date()) {
      return (await windows.deleteMany({ expiresAt: { $lt: now } })).deleted;
    },
  };
}

export type RateWindowStore = ReturnType<typeof createRateWindowStore>;
