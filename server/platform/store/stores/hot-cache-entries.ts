import { approximateBytes, createBoundedLru } from '../bounded-lru';
import type { CacheEntry } from './cache-entry';

/**
 * Hot cache entries kept in memory at most, and the memory they may take (as approximateBytes
 * counts it: an entry holds the page's HTML twice, raw and rendered, so an ordinary page takes
 * 0.1–2 MB). Enough for the pages a busy server is asked for again and again, small beside the
 * browsers' own memory.
 */
export const HOT_CACHE_MAX_ENTRIES = 1_000;
export const HOT_CACHE_MAX_BYTES = 64 * 1024 * 1024;

export const isSuccess = (statusCode: number) => statusCode >= 200 && statusCode < 300;

const slot = (key: string, scope: string) => `${scope}\n${key}`;

/**
 * The memory side of the scrape cache: per cache key and scope, the newest successful entry this
 * process knows of, least recently used ones dropped first. Only successes are held: a failed
 * capture is served only when newer captures failed too, which depends on more than one entry
 * (cache-store.ts `findFresh`). Held entries are frozen, since every request that hits them
 * shares them.
 */
export function createHotCacheEntries({
  maxEntries = HOT_CACHE_MAX_ENTRIES,
  maxBytes = HOT_CACHE_MAX_BYTES,
}: { maxEntries?: number; maxBytes?: number } = {}) {
  const held = createBoundedLru<string, CacheEntry>({ maxEntries, maxBytes });

  return {
    /**
     * The newest held entry for `key` in any of `scopes` that was cached at or after `notBefore`
     * and is not past its retention at `now`.
     */
    lookup({
      key,
      scopes,
      notBefore,
      now,
    }: {
      key: string;
      scopes: readonly string[];
      notBefore: Date;
      now: Date;
    }): CacheEntry | undefined {
      let newest: CacheEntry | undefined;
      for (const scope of scopes) {
        const entry = held.get(slot(key, scope));
        if (entry === undefined) continue;
        if (entry.expiresAt <= now) {
          held.delete(slot(key, scope));
          continue;
        }
        if (entry.cachedAt < notBefore) continue;
        if (newest === undefined || entry.cachedAt > newest.cachedAt) newest = entry;
      }
      return newest;
    },

    /** Holds a successful entry unless a newer one of its key and scope is held already. */
    remember(entry: CacheEntry): void {
      if (!isSuccess(entry.capture.statusCode)) return;
      const current = held.peek(slot(entry.key, entry.scope));
      if (current !== undefined && current.cachedAt > entry.cachedAt) return;
      Object.freeze(entry.capture);
      held.set(slot(entry.key, entry.scope), Object.freeze(entry), approximateBytes(entry));
    },

    /** Drops what is held for `key` in these scopes. */
    forget(key: string, scopes: readonly string[]): void {
      for (const scope of scopes) held.delete(slot(key, scope));
    },

    /** Drops entries past their retention at `now`, as the store's purge does. */
    purge(now: Date): number {
      return held.deleteWhere((entry) => entry.expiresAt < now);
    },

    get size() {
      return held.size;
    },
    get bytes() {
      return held.bytes;
    },
  };
}

export type HotCacheEntries = ReturnType<typeof createHotCacheEntries>;
