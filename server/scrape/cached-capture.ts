import type { ScrapeRequestV2 } from '../../shared/api/v2/scrape-request';
import type { PageCapture } from '../../shared/protocol/messages';
import type { Log } from '../log';
import { StoreUnavailableError } from '../store/database';
import { PUBLIC_SCOPE, type CacheStore } from '../store/stores/cache-store';
import { cacheKey, normalizeCacheUrl } from './cache-key';
import { DEFAULT_MAX_AGE_MS, mayReadCache, mayWriteCache } from './cache-policy';

/**
 * MongoDB refuses documents over 16 MiB, and a PDF travels as up to 40 Mi characters of base64:
 * captures larger than this are served but not cached.
 */
export const MAX_CACHED_CAPTURE_CHARS = 12 * 1024 * 1024;

const captureChars = (capture: PageCapture) =>
  capture.rawHtml.length + capture.renderedHtml.length + (capture.pdfBase64?.length ?? 0);

export interface CaptureOutcome {
  capture: PageCapture;
  /** Present only when the cache was consulted for this request (contract §10). */
  cacheState?: 'hit' | 'miss';
  cachedAt?: string;
  /** Who may see what the capture shows: `public`, or the team whose logged-in browser took it. */
  scope: string;
}

/** Where a fresh capture came from: results of a team's logged-in browser are that team's alone. */
export type CaptureSource = { scope: typeof PUBLIC_SCOPE } | { scope: 'team' };

/**
 * Answers a request from the scrape cache when it may, and otherwise takes a fresh capture and
 * stores it when it may. The cache is an optimisation: when the database is unreachable the scrape
 * goes on without it (and says so in the log) rather than failing.
 */
export function createCachedCapture({ cache, log }: { cache: CacheStore; log: Log }) {
  return async function capture(
    request: ScrapeRequestV2,
    teamId: string,
    fresh: () => Promise<{ capture: PageCapture; source: CaptureSource }>,
    now: () => Date = () => new Date(),
    {
      teamOnly = false,
    }: {
      /**
       * Read only the team's own entries: the team has a logged-in browser for this URL, and an
       * anonymous copy from the shared cache would hide what its login shows.
       */
      teamOnly?: boolean;
    } = {},
  ): Promise<CaptureOutcome> {
    const key = cacheKey(request);
    const readable = mayReadCache(request);
    if (readable) {
      const notBefore = new Date(now().getTime() - (request.maxAge ?? DEFAULT_MAX_AGE_MS));
      const scopes = teamOnly ? [teamId] : [PUBLIC_SCOPE, teamId];
      try {
        const entry = await cache.findFresh({ key, scopes, notBefore });
        if (entry !== undefined) {
          return {
            capture: entry.capture,
            cacheState: 'hit',
            cachedAt: entry.cachedAt.toISOString(),
            scope: entry.scope,
          };
        }
      } catch (err) {
        if (!(err instanceof StoreUnavailableError)) throw err;
        log.warn('scrape cache unavailable; scraping fresh', { error: err.message });
      }
    }

    const { capture, source } = await fresh();
    const scope = source.scope === 'team' ? teamId : PUBLIC_SCOPE;
    if (mayWriteCache(request) && captureChars(capture) <= MAX_CACHED_CAPTURE_CHARS) {
      try {
        await cache.put({ key, scope, url: normalizeCacheUrl(request.url.url), capture, now: now() });
      } catch (err) {
        if (!(err instanceof StoreUnavailableError)) throw err;
        log.warn('scrape cache unavailable; result not cached', { error: err.message });
      }
    }
    return readable ? { capture, cacheState: 'miss', scope } : { capture, scope };
  };
}

export type CachedCapture = ReturnType<typeof createCachedCapture>;
