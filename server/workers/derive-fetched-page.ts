import { type RawHtmlFacts, readRawHtml } from '../../shared/formats/derive-formats';
import type { PageCapture } from '../../shared/protocol/messages';
import { inspectFetchedPage } from '../scrape/fast-path/inspect-fetched-page';
import { type PageDerivation, type PageDeriveOptions, derivePage } from './derive-page';

/** A page the HTTP fast path fetched: a capture but for the rendered HTML, which is made from it. */
export type FetchedPage = Omit<PageCapture, 'renderedHtml'>;

export type FetchedPageOutcome =
  { needsBrowser: string } | { needsBrowser?: undefined; capture: PageCapture; derived: PageDerivation };

/**
 * The fast path's verdict on a fetched page and, when it may stand for a browser's capture, its
 * formats, in one go: the HTML as fetched is parsed once for the verdict, the page's metadata and
 * images, and then made into the rendered page, which is parsed once more for cleaning and
 * Markdown (as a browser's capture is).
 */
export async function deriveFetchedPage(
  page: FetchedPage,
  options: PageDeriveOptions,
): Promise<FetchedPageOutcome> {
  let raw: RawHtmlFacts | undefined;
  const verdict = inspectFetchedPage(page.rawHtml, (document) => {
    raw = readRawHtml(document, page.url, options);
  });
  if (verdict.needsBrowser !== undefined) return verdict;
  const capture: PageCapture = { ...page, renderedHtml: verdict.renderedHtml };
  return { capture, derived: await derivePage(capture, options, raw) };
}
