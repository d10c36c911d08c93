import type { Config } from '../../platform/config';
import type { Egress } from '../../platform/egress';
import type { Scraper } from '../../scrape/types';
import type { SearchIndexStore } from '../../platform/store';
import { SEARCH_ENGINES, createBrowserSearchProvider } from './browser-search-provider';
import { createLocalIndexProvider } from './local-index-provider';
import type { SearchProvider } from './search-provider';
import { createSearxngProvider } from './searxng-provider';

/** The provider the configuration names (SEARCH_PROVIDER; searxng when only SEARXNG_URL is set, else local). */
export function createSearchProvider({
  config,
  searchIndex,
  scraper,
  searxngEgress,
}: {
  config: Pick<Config, 'SEARCH_PROVIDER' | 'SEARXNG_URL' | 'SEARCH_ENGINE' | 'SEARCH_ENGINE_URL'>;
  searchIndex: SearchIndexStore;
  /** The scraper; result pages are `product-request` pages (not billed). */
  scraper: Scraper;
  searxngEgress: Egress;
}): SearchProvider {
  const kind = config.SEARCH_PROVIDER ?? (config.SEARXNG_URL === undefined ? 'local' : 'searxng');
  switch (kind) {
    case 'searxng':
      // config.ts refuses SEARCH_PROVIDER=searxng without SEARXNG_URL.
      return createSearxngProvider({ baseUrl: config.SEARXNG_URL!, egress: searxngEgress });
    case 'browser':
      return createBrowserSearchProvider({
        scraper,
        engine: SEARCH_ENGINES[config.SEARCH_ENGINE],
        baseUrl: config.SEARCH_ENGINE_URL,
      });
    case 'local':
      return createLocalIndexProvider({ searchIndex });
  }
}
