import { createBoundedLru } from '../../platform/store';

/**
 * A cache hit writes nothing new to the map and search indexes: the same capture, derived the same
 * way, was recorded when it was first served. Recording it again only moves `lastSeenAt`,
 * `indexedAt` and their expiries (30 and 90 days) forward, so it is done at most this often per
 * team and capture; the map index recorder makes the same trade for links (RECENT_MS there).
 */
export const RECORD_AGAIN_MS = 10 * 60_000;
const MAX_REMEMBERED = 10_000;

/** Which writes were made lately, by a key naming what they wrote. */
export function createRecentWrites({
  againAfterMs = RECORD_AGAIN_MS,
  maxEntries = MAX_REMEMBERED,
}: { againAfterMs?: number; maxEntries?: number } = {}) {
  const written = createBoundedLru<string, number>({ maxEntries, maxBytes: Infinity });
  return {
    /** Whether the write named `key` is due (not made within `againAfterMs`); if so, it counts as made now. */
    due(key: string, now = Date.now()): boolean {
      const at = written.get(key);
      if (at !== undefined && now - at < againAfterMs) return false;
      written.set(key, now, 1);
      return true;
    },
    /** The write failed: the next one is due. */
    forget(key: string): void {
      written.delete(key);
    },
  };
}
