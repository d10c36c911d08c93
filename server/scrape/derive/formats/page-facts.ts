import { parseHtml } from '../../../../shared/html/parse-html';
import type { PageCapture } from '../../../../shared/protocol/messages';
import type { PageFacts } from './fill-schema';
import { pageLabels } from './page-labels';
import { extractJsonLd, extractMicrodata } from './structured-data';

const firstOf = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * What the page states about itself: structured data from the raw HTML, labels from the rendered
 * page. Parsing is the costly part, so the derivation worker does it when a format will need it
 * (server/scrape/derive/derive-page.ts); only plain values come out, so the result crosses threads.
 */
export function pageFacts(capture: PageCapture, metadata: Record<string, string | string[]>): PageFacts {
  const raw = parseHtml(capture.rawHtml);
  const rendered = capture.renderedHtml ? parseHtml(capture.renderedHtml) : raw;
  return {
    jsonLd: extractJsonLd(raw),
    microdata: extractMicrodata(rendered),
    labels: pageLabels(rendered),
    subject: rendered.querySelector('h1')?.textContent?.trim() || firstOf(metadata['og:title']),
    metadata,
  };
}
