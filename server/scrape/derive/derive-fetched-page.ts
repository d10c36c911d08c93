import { readRawHtml } from '../../../shared/formats/derive-formats';
import type { PageCapture } from '../../../shared/protocol/messages';
import { inspectFetchedPage } from './fetched-page/inspect-fetched-page';
import { readPage } from './formats/page-reads';
import { type PageDerivation, type PageDeriveOptions, derivePage } from './derive-page';

/** A page the HTTP fast path fetched: a capture but for the rendered HTML, which is made from it. */
export type FetchedPage = Omit<PageCapture, 'renderedHtml'>;

export type FetchedPageOutcome =
  { needsBrowser: string } | { needsBrowser?: undefined; capture: PageCapture; derived: PageDerivation };

/**
 * The fast path's verdict on a fetched page and, when it may stand for a browser's capture, its
 * formats, in one go and from one parse: the HTML as fetched is read for the verdict, the page's
 * metadata and images (and what the page-reading formats ask), then made into the rendered page,
 * and that same tree is cleaned and converted (as a browser's capture is after parsing its
 * rendered HTML).
 */
export async function deriveFetchedPage(
  page: FetchedPage,
  options: PageDeriveOptions,
): Promise<FetchedPageOutcome> {
  const verdict = inspectFetchedPage(page.rawHtml, (document) => ({
    raw: readRawHtml(document, page.url, options),
    reads: options.reads === undefined ? undefined : readPage(document, page.url, options.reads),
  }));
  if (verdict.needsBrowser !== undefined) return { needsBrowser: verdict.needsBrowser };
  const capture: PageCapture = { ...page, renderedHtml: verdict.renderedHtml };
  const parsed = { raw: verdict.fetched.raw, renderedDocument: verdict.renderedDocument };
  return { capture, derived: await derivePage(capture, options, parsed, verdict.fetched.reads) };
}
