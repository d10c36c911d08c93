import { randomUUID } from 'node:crypto';
import type { PageCapture } from '../../../shared/protocol/messages';
import type { Collection, Database, StoredDocument } from '../database';

/** Cache entries are kept this long whatever maxAge callers ask for; older ones are purged. */
export const CACHE_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/** Results anyone may be served. Results of a team's donated (logged-in) browsers carry the team id instead. */
export const PUBLIC_SCOPE = 'public';

export interface CacheEntry extends StoredDocument {
  /** Hash of the normalised URL and the options that change what the browser sees. */
  key: string;
  scope: string;
  /** Normalised URL, for people looking at the collection. */
  url: string;
  cachedAt: Date;
  expiresAt: Date;
  capture: PageCapture;
}

const isSuccess = (statusCode: number) => statusCode >= 200 && statusCode < 300;

/**
 * The scrape cache: captures (raw and rendered HTML, metadata, screenshots) keyed by what was
 * asked, so a later request with other formats is answered from the same entry.
 */
export function createCacheStore(database: Database) {
  const entries: Collection<CacheEntry> = database.collection('cache_entries');

  return {
    async ensureIndexes() {
      await entries.createIndex({ name: 'key_scope_cachedAt', keys: { key: 1, scope: 1, cachedAt: -1 } });
      await entries.createIndex({ name: 'expiresAt_ttl', keys: { expiresAt: 1 }, expireAfterSeconds: 0 });
    },

    /**
     * The entry to serve for `key`, cached at or after `notBefore`, from any of `scopes`. Among the
     * five newest, the newest successful (2xx) capture wins, unless three or more newer captures
     * failed: then the site is really failing now and the newest entry is the truth (contract §10).
     */
    async findFresh({ key, scopes, notBefore }: { key: string; scopes: readonly string[]; notBefore: Date }) {
      const recent = await entries.find(
        { key, scope: { $in: [...scopes] }, cachedAt: { $gte: notBefore } },
        { sort: { cachedAt: -1 }, limit: 5 },
      );
      const newestSuccess = recent.findIndex((entry) => isSuccess(entry.capture.statusCode));
      if (newestSuccess === -1 || newestSuccess >= 3) return recent[0];
      return recent[newestSuccess];
    },

    async put({
      key,
      scope,
      url,
      capture,
      now = new Date(),
    }: {
      key: string;
      scope: string;
      url: string;
      capture: PageCapture;
      now?: Date;
    }) {
      const entry: CacheEntry = {
        _id: randomUUID(),
        key,
        scope,
        url,
        cachedAt: now,
        expiresAt: new Date(now.getTime() + CACHE_RETENTION_MS),
        capture,
      };
      await entries.insertOne(entry);
      return entry;
    },

    /** Removes entries past retention; the TTL index does the same where the backend has one. */
    async purgeExpired(now = new Date()) {
      return (await entries.deleteMany({ expiresAt: { $lt: now } })).deleted;
    },
  };
}

export type CacheStore = ReturnType<typeof createCacheStore>;
