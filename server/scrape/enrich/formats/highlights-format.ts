import type { FormatOutcome } from './json-format';
import { bestPassages } from './page-passages';

/**
 * The highlights format: the passages of the page that best answer `query`, verbatim from its
 * Markdown, in page order and separated by a blank line, as one string (as Firecrawl's clients
 * type it). No model: the passages are ranked by the words they share with the query.
 */
export function highlightsFormat(markdown: string, query: string): FormatOutcome<string> {
  const passages = bestPassages(markdown, query);
  if (passages.length === 0) {
    return { value: '', warning: 'No passage of the page matches the highlights query.' };
  }
  return { value: passages.join('\n\n') };
}
