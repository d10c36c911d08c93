import { randomUUID } from 'node:crypto';
import type { PageCapture } from '../../../../shared/protocol/messages';
import type { Collection, Database } from '../database';
import { PUBLIC_SCOPE, type CacheEntry } from './cache-entry';
import { createHotCacheEntries, isSuccess } from './hot-cache-entries';

export { PUBLIC_SCOPE, type CacheEntry };

/** Cache entries are kept this long whatever maxAge callers ask for; older ones are purged. */
export const CACHE_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The scrape cache: captures (raw and rendered HTML, metadata, screenshots) keyed by what was
 * asked, so a later request with other formats is answered from the same entry.
 *
 * Hot entries are also held in memory (hot-cache-entries.ts), so that a page asked for again and
 * again is not read, sorted and copied from the database every time. The memory never serves what
 * the database could not serve: only an entry cached within the caller's maxAge, not past its
 * retention, of a scope the caller may read, and still stored:
 * - the embedded store belongs to this one process (directory-lock.ts), so every capture stored
 *   or purged passes through here and the memory follows it: a new success replaces the held
 *   entry, a failure drops it (the database then decides whether failures now win), a purge
 *   drops what it removes. The one difference left: a team whose own (logged-in) entry was never
 *   held, or was dropped for room, may get the held public copy, which is within its maxAge too;
 *   a team whose browser covers the URL reads its own scope only, and gets its own entry.
 * - a MongoDB is shared by every instance. Before a held entry is served, two counts on indexed
 *   fields (no capture travels) make sure it is still stored and that no instance stored a newer
 *   capture for the key and scopes since; otherwise the database is read as before. So a
 *   deletion or purge elsewhere, or a newer capture (or failure) from another instance, is seen
 *   by the next request, and the answer is the database's own.
 */
export function createCacheStore(
  database: Database,
  { hot: hotBounds = {} }: { hot?: { maxEntries?: number; maxBytes?: number } } = {},
) {
  const entries: Collection<CacheEntry> = database.collection('cache_entries');
  const hot = createHotCacheEntries(hotBounds);
  /** Whether other processes may write the collection. */
  const shared = database.kind !== 'embedded';

  /** On a shared database: the held entry is still stored, and nothing newer for its key and scopes is. */
  const stillNewest = async (entry: CacheEntry, scopes: readonly string[]) => {
    const [self, newer] = await Promise.all([
      entries.countDocuments({ _id: entry._id }),
      entries.countDocuments({
        key: entry.key,
        scope: { $in: [...scopes] },
        cachedAt: { $gt: entry.cachedAt },
      }),
    ]);
    return self === 1 && newer === 0;
  };

  return {
    async ensureIndexes() {
      await entries.createIndex({ name: 'key_scope_cachedAt', keys: { key: 1, scope: 1, cachedAt: -1 } });
      await entries.createIndex({ name: 'expiresAt_ttl', keys: { expiresAt: 1 }, expireAfterSeconds: 0 });
    },

    /**
     * The entry to serve for `key`, cached at or after `notBefore` and not past retention at `now`,
     * from any of `scopes`. Among the five newest, the newest successful (2xx) capture wins, unless
     * three or more newer captures failed: then the site is really failing now and the newest
     * entry is the truth (docs/wire-contract.md §10).
     */
    async findFresh({
      key,
      scopes,
      notBefore,
      notAfter,
      now = new Date(),
    }: {
      key: string;
      scopes: readonly string[];
      notBefore: Date;
      /** Only entries cached at or before this (`minAge`); the memory holds the newest only, so it is skipped. */
      notAfter?: Date | undefined;
      now?: Date;
    }): Promise<CacheEntry | undefined> {
      const held = notAfter === undefined ? hot.lookup({ key, scopes, notBefore, now }) : undefined;
      if (held !== undefined) {
        if (!shared || (await stillNewest(held, scopes))) return held;
        hot.forget(key, [held.scope]);
      }
      // Past retention is past, whether or not the purge or a TTL monitor has come by yet.
      const cachedAt = notAfter === undefined ? { $gte: notBefore } : { $gte: notBefore, $lte: notAfter };
      const recent = await entries.find(
        { key, scope: { $in: [...scopes] }, cachedAt, expiresAt: { $gt: now } },
        { sort: { cachedAt: -1 }, limit: 5 },
      );
      const newestSuccess = recent.findIndex((entry) => isSuccess(entry.capture.statusCode));
      const chosen = newestSuccess === -1 || newestSuccess >= 3 ? recent[0] : recent[newestSuccess];
      if (chosen !== undefined && notAfter === undefined) hot.remember(chosen);
      return chosen;
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
      // A failure may now be what the database answers (three in a row): the memory steps aside.
      if (isSuccess(capture.statusCode)) hot.remember({ ...entry, capture: { ...capture } });
      else hot.forget(key, [PUBLIC_SCOPE, scope]);
      return entry;
    },

    /** Removes entries past retention; the TTL index does the same where the backend has one. */
    async purgeExpired(now = new Date()) {
      hot.purge(now);
      return (await entries.deleteMany({ expiresAt: { $lt: now } })).deleted;
    },

    /** Entries and approximate bytes held in memory. */
    hotSize: () => ({ entries: hot.size, bytes: hot.bytes }),
  };
}

export type CacheStore = ReturnType<typeof createCacheStore>;
