import { repairLikeBrowser } from '../../server/scrape/derive/fetched-page/repair-like-browser';
import { removeHidden } from '../../server/scrape/derive/fetched-page/remove-hidden';
import { parseHtml } from '../../shared/html/parse-html';
import { revealStreamedContent } from '../../shared/html/reveal-streamed-content';

/**
 * The rendered HTML the HTTP fast path makes of a fetched page (inspect-fetched-page.ts, whatever
 * its verdict): the benchmarks' pages were fetched without running scripts, so this is the HTML
 * Tabhive derives from when it serves them without a browser.
 */
export function renderLikeFastPath(html: string): string {
  const document = parseHtml(html);
  repairLikeBrowser(document);
  revealStreamedContent(document);
  removeHidden(document, { cookieBanners: true });
  return document.documentElement.outerHTML;
}
