import type { ScrapeOptionsV2 } from '../../../shared/api/v2/scrape-options';

/**
 * Formats made from the page's HTML alone (json, summary, changeTracking, question and the like
 * read its Markdown; product, menu, audio and video its HTML). Not `attributes`: it reads the DOM
 * as the browser holds it after scripts, which attributes set by a script are part of, and the
 * fast path's test of whether a page needs JavaScript looks at its content, not its attributes.
 */
const HTML_FORMATS = new Set([
  'markdown',
  'html',
  'rawHtml',
  'links',
  'images',
  'json',
  'summary',
  'changeTracking',
  'highlights',
  'question',
  'query',
  'product',
  'menu',
  'audio',
  'video',
]);

/**
 * Whether a request asks for nothing only a browser can do: no actions, screenshot, branding,
 * mobile or location emulation, no waitFor, no headers of its own (the page must be the one the
 * browser would have asked for), a basic route (stealth requests go through a stealth browser), and
 * blockAds on (without it the caller wants the ads a browser would load and show).
 */
export function fastPathEligible(request: ScrapeOptionsV2): boolean {
  return (
    (request.actions ?? []).length === 0 &&
    request.formats.every((format) => HTML_FORMATS.has(format.type)) &&
    !request.mobile &&
    request.location === undefined &&
    request.waitFor === 0 &&
    Object.keys(request.headers ?? {}).length === 0 &&
    request.proxy !== 'stealth' &&
    request.blockAds
  );
}
