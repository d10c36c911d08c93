import {
  type BlockPage,
  describeBlock,
  recognizeBlockPage,
} from '../../../../shared/block-pages/recognize-block-page';
import type { PageCapture } from '../../../../shared/protocol/messages';
import { errors, type TabhiveError } from '../../../platform/errors';

/** Statuses anti-bot systems and rate limiters answer with: worth another browser under `proxy: auto`. */
const REFUSAL_STATUSES = new Set([401, 403, 429]);

type CaptureSignals = Pick<PageCapture, 'statusCode' | 'rawHtml' | 'responseHeaders' | 'pdfBase64'>;

/**
 * What blocked the capture (shared/block-pages/recognize-block-page.ts), or undefined when it is
 * the site's page. A PDF is a document the site sent, never a block page.
 */
export function blockOf(capture: CaptureSignals): BlockPage | undefined {
  if (capture.pdfBase64 !== undefined) return undefined;
  return recognizeBlockPage({
    statusCode: capture.statusCode,
    headers: capture.responseHeaders,
    html: capture.rawHtml,
  });
}

/**
 * Whether another browser might get the page (`proxy: auto`'s stealth retry, the fast path's
 * hand-over to a browser): a recognised block page, or a refusal status even without a vendor's
 * mark. Only a recognised block page fails the scrape (blockedPageError); a bare 403 that names no
 * block is returned as the page it is, with its status, as Firecrawl returns error pages.
 */
export function worthAnotherBrowser(capture: CaptureSignals): boolean {
  return REFUSAL_STATUSES.has(capture.statusCode) || blockOf(capture) !== undefined;
}

/**
 * The scrape's error for a block page: never a success, never cached or billed, never a crawled
 * page (docs/browser-control.md#blocked-pages-and-challenges). Firecrawl's code for a site that
 * would not give its page (SCRAPE_SITE_ERROR), the vendor named in the message and in `details`.
 */
export function blockedPageError(block: BlockPage, target: URL): TabhiveError {
  return errors.pageBlocked(`${target.hostname} answered with ${describeBlock(block)} instead of its page`, {
    blockedBy: block.vendor,
    kind: block.kind,
  });
}
