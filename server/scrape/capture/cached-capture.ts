import { servesFromCacheOnly } from '../../../shared/api/v2/cache-only';
import type { ScrapeRequestV2 } from '../../../shared/api/v2/scrape-request';
import type { PageCapture } from '../../../shared/protocol/messages';
import { errors } from '../../platform/errors';
import type { Log } from '../../platform/log';
import { createBoundedLru, StoreUnavailableError, PUBLIC_SCOPE, type CacheStore } from '../../platform/store';
import { blockOf } from './block-pages/capture-block';
import { cacheKey, normalizeCacheUrl } from './cache-key';
import { cacheWindow, describeCacheWindow, mayReadCache, mayWriteCache } from './cache-policy';
import { looksLikeLoadingPlaceholder } from './loading-placeholder';

/**
 * MongoDB refuses documents over 16 MiB, and a PDF travels as up to 40 Mi characters of base64:
 * captures larger than this are served but not cached.
 */
export const MAX_CACHED_CAPTURE_CHARS = 12 * 1024 * 1024;

const captureChars = (capture: PageCapture) =>
  capture.rawHtml.length + capture.renderedHtml.length + (capture.pdfBase64?.length ?? 0);

/** Verdicts on served entries remembered (entries stored before placeholders were kept out). */
const PLACEHOLDER_VERDICTS = 10_000;

export interface CaptureOutcome {
  capture: PageCapture;
  /** Present only when the cache was consulted for this request (docs/wire-contract.md §10). */
  cacheState?: 'hit' | 'miss';
  cachedAt?: string;
  /** Who may see what the capture shows: `public`, or the team whose browser, state or request shaped it. */
  scope: string;
  /**
   * The cache entry that holds the capture (served from it, or stored now): the same id is the
   * same capture, so what is made from it can be reused.
   */
  entryId?: string;
  /** The capture is a page that had not loaded yet (loading-placeholder.ts); it was not cached. */
  placeholder: boolean;
}

/**
 * Whom a fresh capture may be shown to: `public` only when nothing of the team shaped it
 * (cache-policy.ts mayShareBrowserCapture); otherwise the team's alone, in its own scope.
 */
export type CaptureSource = { scope: typeof PUBLIC_SCOPE } | { scope: 'team' };

/**
 * Answers a request from the scrape cache when it may, and otherwise takes a fresh capture and
 * stores it when it may. The cache is an optimisation: when the database is unreachable the scrape
 * goes on without it (and says so in the log) rather than failing.
 *
 * A capture of a page still showing its loading placeholder is not stored: it is not the page,
 * and the next request should try the page again rather than be served the placeholder for the
 * two days of the default maxAge. (Caching it for a short while would spare the site repeated
 * visits, but would answer those callers with the same empty capture they can retry themselves.)
 *
 * A cache-only request (`lockdown`, `minAge`) never takes a fresh capture: a miss is a 404
 * (SCRAPE_LOCKDOWN_CACHE_MISS with lockdown, else SCRAPE_NO_CACHED_DATA), and an unreachable
 * database a 503, since scraping instead is exactly what the caller forbade.
 */
export function createCachedCapture({ cache, log }: { cache: CacheStore; log: Log }) {
  const verdicts = createBoundedLru<string, boolean>({
    maxEntries: PLACEHOLDER_VERDICTS,
    maxBytes: Infinity,
  });
  /** Judged once per entry: a hot entry is served many times. */
  const servedPlaceholder = (entryId: string, capture: PageCapture) => {
    let verdict = verdicts.get(entryId);
    if (verdict === undefined) {
      verdict = looksLikeLoadingPlaceholder(capture);
      verdicts.set(entryId, verdict, 1);
    }
    return verdict;
  };

  const blockVerdicts = createBoundedLru<string, boolean>({
    maxEntries: PLACEHOLDER_VERDICTS,
    maxBytes: Infinity,
  });
  /** Judged once per entry, as placeholders are. */
  const servedBlockPage = (entryId: string, capture: PageCapture) => {
    let verdict = blockVerdicts.get(entryId);
    if (verdict === undefined) {
      verdict = blockOf(capture) !== undefined;
      blockVerdicts.set(entryId, verdict, 1);
    }
    return verdict;
  };

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
    const cacheOnly = servesFromCacheOnly(request);
    if (readable) {
      const at = now();
      const { notBefore, notAfter } = cacheWindow(request, at);
      const scopes = teamOnly ? [teamId] : [PUBLIC_SCOPE, teamId];
      try {
        const entry = await cache.findFresh({ key, scopes, notBefore, notAfter, now: at });
        // A block page stored before they were recognised is no copy of the page: take it anew.
        if (entry !== undefined && !servedBlockPage(entry._id, entry.capture)) {
          return {
            capture: entry.capture,
            cacheState: 'hit',
            cachedAt: entry.cachedAt.toISOString(),
            scope: entry.scope,
            entryId: entry._id,
            placeholder: servedPlaceholder(entry._id, entry.capture),
          };
        }
      } catch (err) {
        if (!(err instanceof StoreUnavailableError)) throw err;
        if (cacheOnly) throw errors.storeUnavailable();
        log.warn('scrape cache unavailable; scraping fresh', { error: err.message });
      }
    }
    if (cacheOnly) {
      const window = describeCacheWindow(request);
      throw request.lockdown === true ? errors.lockdownCacheMiss(window) : errors.noCachedCopy(window);
    }

    const { capture, source } = await fresh();
    const scope = source.scope === 'team' ? teamId : PUBLIC_SCOPE;
    const placeholder = looksLikeLoadingPlaceholder(capture);
    let entryId: string | undefined;
    // fresh() refuses block pages (fresh-capture.ts); one that got here anyway is not kept either.
    const blocked = blockOf(capture) !== undefined;
    if (
      mayWriteCache(request) &&
      !placeholder &&
      !blocked &&
      captureChars(capture) <= MAX_CACHED_CAPTURE_CHARS
    ) {
      try {
        entryId = (
          await cache.put({ key, scope, url: normalizeCacheUrl(request.url.url), capture, now: now() })
        )._id;
      } catch (err) {
        if (!(err instanceof StoreUnavailableError)) throw err;
        log.warn('scrape cache unavailable; result not cached', { error: err.message });
      }
    }
    return {
      capture,
      ...(readable ? { cacheState: 'miss' as const } : {}),
      scope,
      ...(entryId === undefined ? {} : { entryId }),
      placeholder,
    };
  };
}

export type CachedCapture = ReturnType<typeof createCachedCapture>;
