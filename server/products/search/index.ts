/** Search: a search provider (SearXNG or the local index) and the scrape of its results. */
export { addPageToSearchIndex } from './add-page-to-search-index';
export { createSearchProvider } from './create-search-provider';
export { createSearchService } from './create-search-service';
export type { SearchService } from './create-search-service';
export { searchIndexSink } from './search-index-sink';
export { v1SearchData } from './v1-search-data';
