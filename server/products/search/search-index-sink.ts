import type { SearchIndexStore } from '../../platform/store';
import type { SearchIndexSink } from '../../scrape/emit';
import { addPageToSearchIndex } from './add-page-to-search-index';

/** The scraper's search index port (scrape/emit/page-indexes.ts) over the teams' local search index. */
export function searchIndexSink(searchIndex: SearchIndexStore): SearchIndexSink {
  return { addPage: (page) => addPageToSearchIndex(searchIndex, page) };
}
