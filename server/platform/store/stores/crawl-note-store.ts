import { insertIfAbsent, type Collection, type Database, type StoredDocument } from '../database';
import { RESULT_RETENTION_MS } from './result-store';

export interface CrawlNote extends StoredDocument {
  /** `_id` is `<jobId>:robots:<urlKey>`: one note per URL. */
  jobId: string;
  kind: 'robotsBlocked' | 'idempotencyKey';
  url: string;
  createdAt: Date;
  expiresAt: Date;
}

/**
 * What jobs note besides pages: the links robots.txt kept a crawl from (`GET …/errors`), and the
 * `x-idempotency-key`s that created jobs. Both are unique inserts, so they hold across instances.
 */
export function createCrawlNoteStore(database: Database) {
  const notes: Collection<CrawlNote> = database.collection('crawl_notes');

  return {
    async ensureIndexes() {
      await notes.createIndex({ name: 'job', keys: { jobId: 1, createdAt: 1 } });
      await notes.createIndex({ name: 'expiresAt_ttl', keys: { expiresAt: 1 }, expireAfterSeconds: 0 });
    },

    async noteRobotsBlocked(jobId: string, urlKey: string, url: string, now = new Date()) {
      await insertIfAbsent(notes, {
        _id: `${jobId}:robots:${urlKey}`,
        jobId,
        kind: 'robotsBlocked',
        url,
        createdAt: now,
        expiresAt: new Date(now.getTime() + RESULT_RETENTION_MS),
      });
    },

    /** Takes an `x-idempotency-key` for a new job; false when it was used before. */
    async claimIdempotencyKey(teamId: string, key: string, jobId: string, now = new Date()) {
      return insertIfAbsent(notes, {
        _id: `idempotency:${teamId}:${key}`,
        jobId,
        kind: 'idempotencyKey',
        url: '',
        createdAt: now,
        expiresAt: new Date(now.getTime() + RESULT_RETENTION_MS),
      });
    },

    async robotsBlocked(jobId: string): Promise<string[]> {
      return (
        await notes.find({ jobId, kind: 'robotsBlocked' }, { sort: { createdAt: 1 }, limit: 10_000 })
      ).map((note) => note.url);
    },

    async purgeExpired(now = new Date()) {
      return (await notes.deleteMany({ expiresAt: { $lt: now } })).deleted;
    },
  };
}

export type CrawlNoteStore = ReturnType<typeof createCrawlNoteStore>;
