import type { ScrapeOptionsV2 } from '../../../../shared/api/v2/scrape-options';
import { LLM_FORMATS } from '../../types';

/**
 * Formats made from the page's HTML alone: the basic ones, those that read its Markdown (json,
 * summary, question…, llm-formats.ts), and media. Not `attributes`: it reads the DOM as the browser
 * holds it after scripts, which attributes set by a script are part of, and the fast path's test of
 * whether a page needs JavaScript looks at its content, not its attributes.
 */
const HTML_FORMATS = new Set([
  'markdown',
  'html',
  'rawHtml',
  'links',
  'images',
  ...LLM_FORMATS,
  'audio',
  'video',
]);

/**
 * Whether a request asks for nothing only a browser can do: no actions, screenshot, branding,
 * mobile or location emulation, no waitFor, no headers of its own (the page must be the one the
 * browser would have asked for), no browser profile, a basic route (stealth requests go through a stealth browser), and
 * blockAds on (without it the caller wants the ads a browser would load and show).
 */
export function fastPathEligible(request: ScrapeOptionsV2): boolean {
  return (
    // A browser profile's page shows the profile's login: only its browser can take it.
    request.profile === undefined &&
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
