import { createHash } from 'node:crypto';
import type { ScrapeRequestV2 } from '../../../shared/api/v2/scrape-request';
import { requestedParsers } from '../derive';

const INDEX_PAGE = /\/index\.(html?|php|shtml|xml)$/i;

/**
 * The URL as the cache sees it (docs/wire-contract.md §10): fragment dropped, scheme forced to https, default
 * ports dropped, a leading `www.` dropped, a trailing index page and trailing slash removed; the
 * query is kept, since it usually changes the page.
 */
export function normalizeCacheUrl(href: string): string {
  const url = new URL(href);
  url.hash = '';
  const port = url.port === '80' || url.port === '443' ? '' : url.port;
  const host = url.hostname.replace(/^www\./, '');
  const path = url.pathname.replace(INDEX_PAGE, '/').replace(/\/+$/, '');
  return `https://${host}${port === '' ? '' : `:${port}`}${path}${url.search}`;
}

/** What a request asks of the browser that changes the capture; two requests with equal variants share entries. */
export function cacheVariant(request: ScrapeRequestV2) {
  const screenshot = request.formats.find((format) => format.type === 'screenshot');
  return {
    url: normalizeCacheUrl(request.url.url),
    mobile: request.mobile,
    blockAds: request.blockAds,
    screenshot:
      screenshot === undefined
        ? null
        : {
            fullPage: screenshot.fullPage,
            quality: screenshot.quality ?? null,
            viewport: screenshot.viewport ?? null,
          },
    country: request.location?.country ?? null,
    languages: request.location?.languages ?? null,
    // An entry made without PDF parsing holds the PDF itself, and is only good for the same request.
    // The PDF parser's options (maxPages, pages, pageMarkers) and the image parser change what is
    // made from the capture, not the capture: the derivation memo keys on them instead.
    parsePdf: requestedParsers(request.parsers).pdf !== undefined,
    // A page captured with certificate checks off must not answer a request that wants them on.
    skipTlsVerification: request.skipTlsVerification,
    // A capture made with media loaded serves only callers that asked for it; absent otherwise, so
    // older keys stay valid.
    ...(request.blockMedia ? {} : { blockMedia: false }),
    // Only a capture made for the branding format carries it; absent otherwise, so older keys stay valid.
    ...(request.formats.some((format) => format.type === 'branding') ? { branding: true } : {}),
  };
}

/** The cache key: a digest of the variant, so the key has a fixed size whatever the URL. */
export function cacheKey(request: ScrapeRequestV2): string {
  return createHash('sha256')
    .update(JSON.stringify(cacheVariant(request)))
    .digest('hex');
}
