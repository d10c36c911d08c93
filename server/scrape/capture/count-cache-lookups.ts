import type { CachedCapture } from './cached-capture';
import type { TabhiveMetrics } from '../../platform/metrics';

/**
 * The scrape cache, counting its lookups into `tabhive_cache_lookups_total` by result (requests
 * that may not read the cache are not lookups), and marking a hit's scrape as the cache's.
 */
export function countCacheLookups(
  cachedCapture: CachedCapture,
  metrics: Pick<TabhiveMetrics, 'cacheLookups' | 'engines'>,
): CachedCapture {
  return async (...args) => {
    const outcome = await cachedCapture(...args);
    if (outcome.cacheState !== undefined) metrics.cacheLookups.inc({ result: outcome.cacheState });
    if (outcome.cacheState === 'hit') metrics.engines.mark('cache');
    return outcome;
  };
}
