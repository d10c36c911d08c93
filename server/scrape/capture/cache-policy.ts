import { servesFromCacheOnly } from '../../../shared/api/v2/cache-only';
import { redactionSettings } from '../../../shared/api/v2/redact-pii';
import type { ScrapeRequestV2 } from '../../../shared/api/v2/scrape-request';
import type { PageCapture } from '../../../shared/protocol/messages';

/** v2's default freshness when the caller gives no maxAge (docs/wire-contract.md §10). */
export const DEFAULT_MAX_AGE_MS = 2 * 24 * 60 * 60 * 1000;

const hasHeaders = (request: ScrapeRequestV2) => Object.keys(request.headers ?? {}).length > 0;
const hasActions = (request: ScrapeRequestV2) => (request.actions ?? []).length > 0;
const tracksChanges = (request: ScrapeRequestV2) =>
  request.formats.some((format) => format.type === 'changeTracking');

/**
 * Whether the page is what anyone asking for the URL would get: no headers of the caller's own
 * (cookies, tokens), no actions (a login) and no browser profile (its saved login) shaped it.
 */
export function seenAsAnyoneWould(request: ScrapeRequestV2): boolean {
  return !hasHeaders(request) && !hasActions(request) && request.profile === undefined;
}

/**
 * Whether a browser's fresh capture may be shared with every team (docs/security.md): only when
 * nothing of the team shaped it. The request brought nothing of the caller's (seenAsAnyoneWould),
 * a shared pool browser took it (not the team's own node, not a donated browser: the scheduler
 * marks those), and that browser reported that the task ran in state no earlier work had touched
 * for the page (`stateClean`). Anything else, and anything unknown, is the team's alone.
 */
export function mayShareBrowserCapture(request: ScrapeRequestV2, capture: PageCapture): boolean {
  return (
    seenAsAnyoneWould(request) &&
    capture.donated !== true &&
    capture.teamNode !== true &&
    capture.stateClean === true
  );
}

/**
 * Whether a cached capture may answer this request (docs/wire-contract.md §10): not when the caller wants a
 * fresh page (maxAge 0), waits for something, tracks changes, sends its own headers, runs actions,
 * insists on the stealth class of browsers, or asked that nothing be kept. `proxy: "enhanced"`
 * reads the cache like `auto`: it asks for the strongest browser only when a page must be taken.
 * The request schema refuses every one of these with `lockdown` or `minAge` (cache-only.ts).
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
 * asked for personal data to be redacted (the capture holds it unredacted), or changed the page
 * with actions or its own headers (what it saw is not what others would see).
 */
export function mayWriteCache(request: ScrapeRequestV2): boolean {
  return (
    request.storeInCache &&
    request.zeroDataRetention !== true &&
    redactionSettings(request.redactPII) === undefined &&
    !tracksChanges(request) &&
    seenAsAnyoneWould(request)
  );
}

/**
 * When the entries that may answer a request were cached: from `now − maxAge` (by default two
 * days; for a cache-only request without maxAge, any entry still kept) to `now − minAge` when
 * minAge is given.
 */
export function cacheWindow(request: ScrapeRequestV2, now: Date): { notBefore: Date; notAfter?: Date } {
  const maxAge = request.maxAge ?? (servesFromCacheOnly(request) ? undefined : DEFAULT_MAX_AGE_MS);
  return {
    notBefore: maxAge === undefined ? new Date(0) : new Date(now.getTime() - maxAge),
    ...(request.minAge === undefined ? {} : { notAfter: new Date(now.getTime() - request.minAge) }),
  };
}

/** The window of cacheWindow in words, for the error a cache-only request gets on a miss. */
export function describeCacheWindow(request: ScrapeRequestV2): string {
  const limits = [
    ...(request.minAge === undefined ? [] : [`at least ${request.minAge} ms old`]),
    ...(request.maxAge === undefined ? [] : [`at most ${request.maxAge} ms old`]),
  ];
  return limits.length === 0 ? '' : `(${limits.join(' and ')})`;
}
