import { pickBlockSignalHeaders } from '../../../../shared/block-pages/block-signal-headers';
import type { PageCapture } from '../../../../shared/protocol/messages';
import type { Egress } from '../../../platform/egress';
import type { FetchedPage, FetchedPageOutcome, PageDerivation, PageDeriveOptions } from '../../derive';

/** Pages larger than this go to the browser: the HTTP path reads whole bodies into memory. */
export const FAST_PATH_MAX_BYTES = 8 * 1024 * 1024;
/** The HTTP attempt gets at most this, or a third of the budget: the browser needs the rest. */
const FAST_PATH_TIMEOUT_MS = 10_000;

export interface HttpFastPath {
  /**
   * The capture of a page that needs no browser, fetched over HTTP, with the formats `options`
   * ask for; undefined when the page must go to a browser (it is not plain UTF-8 HTML, it depends
   * on JavaScript, or fetching failed).
   */
  capture(
    url: URL,
    timeoutMs: number,
    options: PageDeriveOptions,
  ): Promise<{ capture: PageCapture; derived: PageDerivation } | undefined>;
}

const header = (headers: Record<string, string | string[] | undefined>, name: string) => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

const isHtml = (contentType: string | undefined) =>
  contentType !== undefined && /^\s*(text\/html|application\/xhtml\+xml)\s*(;|$)/i.test(contentType);

/** A charset other than UTF-8 in the header or a <meta>: the egress decodes bodies as UTF-8 only. */
const foreignCharset = (contentType: string, body: string) => {
  const declared =
    /charset\s*=\s*["']?([\w-]+)/i.exec(contentType)?.[1] ??
    /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(body.slice(0, 4096))?.[1];
  return declared !== undefined && !/^utf-?8$/i.test(declared);
};

/**
 * The fast path for pages that need no browser (BENCHMARKS.md#measured-facts: a browser page costs ~100× the
 * CPU of an HTTP fetch): GET through the egress (so every connection is checked as the server's
 * own are), and keep the result only when it is HTML that a browser would show as it came. The
 * capture then has the shape a browser's has, and the formats are derived from it the same way.
 */
export function createHttpFastPath({
  egress,
  deriveFetched,
}: {
  egress: Egress;
  /** Runs off the event loop (the derivation pool): the verdict and the formats, from one parse. */
  deriveFetched: (page: FetchedPage, options: PageDeriveOptions) => Promise<FetchedPageOutcome>;
}): HttpFastPath {
  return {
    async capture(url, timeoutMs, options) {
      let response;
      try {
        response = await egress.get(url.href, {
          // A third of the scrape's time, and never 0, which undici reads as no deadline at all.
          timeoutMs: Math.max(1, Math.min(FAST_PATH_TIMEOUT_MS, Math.floor(timeoutMs / 3))),
          maxBytes: FAST_PATH_MAX_BYTES,
        });
      } catch {
        // Refused, unreachable, a certificate the egress does not trust: the browser decides.
        return undefined;
      }
      const contentType = header(response.headers, 'content-type');
      if (!isHtml(contentType) || contentType === undefined) return undefined;
      if (Buffer.byteLength(response.body) >= FAST_PATH_MAX_BYTES) return undefined;
      if (foreignCharset(contentType, response.body)) return undefined;
      const finalUrl = new URL(response.url);
      // A browser keeps the fragment through redirects that do not set their own.
      if (finalUrl.hash === '' && url.hash !== '') finalUrl.hash = url.hash;
      const outcome = await deriveFetched(
        { url: finalUrl.href, statusCode: response.status, contentType, rawHtml: response.body },
        options,
      );
      if (outcome.needsBrowser !== undefined) return undefined;
      // What says an anti-bot system answered travels with the capture (block-pages/capture-block.ts).
      const signals = pickBlockSignalHeaders(Object.entries(response.headers));
      return Object.keys(signals).length === 0
        ? outcome
        : { ...outcome, capture: { ...outcome.capture, responseHeaders: signals } };
    },
  };
}
