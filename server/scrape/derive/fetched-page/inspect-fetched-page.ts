import { LAYOUT_ATTRIBUTE } from '../../../../shared/html/layout-annotations';
import { parseHtml } from '../../../../shared/html/parse-html';
import { revealStreamedContent } from '../../../../shared/html/reveal-streamed-content';
import { pageNeedsJavaScript } from './page-needs-javascript';
import { removeHidden } from './remove-hidden';
import { repairLikeBrowser } from './repair-like-browser';

export type FetchedPageVerdict<Facts> =
  | { needsBrowser: string }
  | {
      needsBrowser?: undefined;
      /** What `readFetched` read from the page as fetched. */
      fetched: Facts;
      /** The page with what a browser would not display left out (PageCapture.renderedHtml). */
      renderedHtml: string;
      /** The tree renderedHtml was written from, as parsing renderedHtml would give it back. */
      renderedDocument: Document;
    };

/**
 * Only requests with blockAds (the default) take the fast path, so the consent banners a browser
 * task hides are left out here too.
 *
 * Decides whether an HTML page fetched over HTTP may stand for what a browser would capture, and
 * if so makes its rendered HTML. Runs in a derivation worker: it parses the whole page, once; the
 * rendered tree is handed on so that deriving formats need not parse renderedHtml again.
 */
export function inspectFetchedPage<Facts>(
  html: string,
  /** Reads the page as fetched, once it qualifies and before it is made into the rendered page. */
  readFetched: (document: Document) => Facts,
): FetchedPageVerdict<Facts> {
  const document = parseHtml(html);
  // Layout facts come from a browser's capture only: a fetched page claiming them is not trusted.
  document.documentElement.removeAttribute(LAYOUT_ATTRIBUTE);
  const reason = pageNeedsJavaScript(document);
  if (reason !== undefined) return { needsBrowser: reason };
  const fetched = readFetched(document);
  repairLikeBrowser(document);
  revealStreamedContent(document);
  removeHidden(document, { cookieBanners: true });
  const doctype = /^\s*(<!doctype[^>]*>)/i.exec(html)?.[1];
  const renderedHtml = `${doctype === undefined ? '' : `${doctype}\n`}${document.documentElement.outerHTML}`;
  // A removed element leaves the text on either side of it as two text nodes where parsing
  // renderedHtml makes one; turndown's whitespace rules and Readability must see the same tree.
  document.documentElement.normalize();
  return { fetched, renderedHtml, renderedDocument: document };
}
