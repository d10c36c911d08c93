import { parseHtml } from '../../../shared/html/parse-html';
import { pageNeedsJavaScript } from './page-needs-javascript';
import { removeHidden } from './remove-hidden';
import { repairLikeBrowser } from './repair-like-browser';

export type FetchedPageVerdict =
  | { needsBrowser: string }
  | {
      needsBrowser?: undefined;
      /** The page with what a browser would not display left out (PageCapture.renderedHtml). */
      renderedHtml: string;
    };

/**
 * Only requests with blockAds (the default) take the fast path, so the consent banners a browser
 * task hides are left out here too.
 *
 * Decides whether an HTML page fetched over HTTP may stand for what a browser would capture, and
 * if so makes its rendered HTML. Runs in a derivation worker: it parses the whole page.
 */
export function inspectFetchedPage(
  html: string,
  /** Reads the page as fetched, once it qualifies and before it is made into the rendered page. */
  readFetched?: (document: Document) => void,
): FetchedPageVerdict {
  const document = parseHtml(html);
  const reason = pageNeedsJavaScript(document);
  if (reason !== undefined) return { needsBrowser: reason };
  readFetched?.(document);
  repairLikeBrowser(document);
  removeHidden(document, { cookieBanners: true });
  const doctype = /^\s*(<!doctype[^>]*>)/i.exec(html)?.[1];
  return {
    renderedHtml: `${doctype === undefined ? '' : `${doctype}\n`}${document.documentElement.outerHTML}`,
  };
}
