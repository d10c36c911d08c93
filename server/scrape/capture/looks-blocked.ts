import type { PageCapture } from '../../../shared/protocol/messages';

/** Statuses that anti-bot systems and rate limiters answer with (docs/wire-contract.md §3.1 `proxy: auto`). */
const BLOCKED_STATUSES = new Set([401, 403, 429]);

/**
 * Marks of challenge pages served with a 200 or 503: Cloudflare's interstitial, DataDome,
 * PerimeterX, Imperva (Incapsula) and Akamai's "Access Denied". Matched on the raw HTML's head
 * and first kilobytes only, where these pages say who they are.
 */
const CHALLENGE_MARKS = [
  /<title>\s*Just a moment\.\.\.\s*<\/title>/i,
  /<title>\s*Attention Required! \| Cloudflare\s*<\/title>/i,
  /\/cdn-cgi\/challenge-platform\//i,
  /captcha-delivery\.com/i,
  /_pxCaptcha|px-captcha/i,
  /_Incapsula_Resource/i,
  /<title>\s*Access Denied\s*<\/title>[\s\S]*Reference #/i,
];
const SNIFF_CHARS = 16_384;

/** Whether a capture looks like the site refused a bot rather than showing its page. */
export function looksBlocked(capture: Pick<PageCapture, 'statusCode' | 'rawHtml'>): boolean {
  if (BLOCKED_STATUSES.has(capture.statusCode)) return true;
  const head = capture.rawHtml.slice(0, SNIFF_CHARS);
  return CHALLENGE_MARKS.some((mark) => mark.test(head));
}
