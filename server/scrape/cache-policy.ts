import type { ScrapeRequestV2 } from '../../shared/api/v2/scrape-request';

/** v2's default freshness when the caller gives no maxAge (contract §10). */
export const DEFAULT_MAX_AGE_MS = 2 * 24 * 60 * 60 * 1000;

const hasHeaders = (request: ScrapeRequestV2) => Object.keys(request.headers ?? {}).length > 0;
const hasActions = (request: ScrapeRequestV2) => (request.actions ?? []).length > 0;
const tracksChanges = (request: ScrapeRequestV2) =>
  request.formats.some((format) => format.type === 'changeTracking');

/**
 * Whether the page is what anyone asking for the URL would get: no headers of the caller's own
 * (cookies, tokens) and no actions (a login) shaped it.
 */
export function seenAsAnyoneWould(request: ScrapeRequestV2): boolean {
  return !hasHeaders(request) && !hasActions(request);
}

/**
 * Whether a cached capture may answer this request (contract §10): not when the caller wants a
 * fresh page (maxAge 0), waits for something, tracks changes, sends its own headers, runs actions,
 * insists on the stealth class of browsers, or asked that nothing be kept.
 */
export function mayReadCache(request: ScrapeRequestV2): boolean {
  return (
    (request.maxAge ?? DEFAULT_MAX_AGE_MS) > 0 &&
    request.waitFor === 0 &&
    !tracksChanges(request) &&
    seenAsAnyoneWould(request) &&
    request.proxy !== 'stealth' &&
    request.zeroDataRetention !== true
  );
}

/**
 * Whether a fresh capture may be stored: unless the caller said not to, asked that nothing be kept,
 * or changed the page with actions or its own headers (what it saw is not what others would see).
 */
export function mayWriteCache(request: ScrapeRequestV2): boolean {
  return (
    request.storeInCache &&
    request.zeroDataRetention !== true &&
    !tracksChanges(request) &&
    seenAsAnyoneWould(request)
  );
}
