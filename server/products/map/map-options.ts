import type { ScrapeOptionsV2 } from '../../../shared/api/v2/scrape-options';

/** What a map does, whichever API version asked (v2 names). */
export interface MapOptions {
  url: string;
  search?: string | undefined;
  sitemap: 'include' | 'skip' | 'only';
  includeSubdomains: boolean;
  ignoreQueryParameters: boolean;
  limit: number;
  /** Overall deadline in ms; past it the map answers 408 MAP_TIMEOUT. */
  timeout?: number | undefined;
  filterByPath: boolean;
  /** Read URLs Tabhive has seen before from the map index. */
  useIndex: boolean;
  location?: ScrapeOptionsV2['location'];
  includePaths: readonly string[];
  excludePaths: readonly string[];
  regexOnFullURL: boolean;
  ignoreRobotsTxt: boolean;
}

/**
 * A whole-site map as the server's own jobs ask for one (extract's wildcards, llms.txt): the
 * sitemap included, query strings dropped, the map index used, no path filters, robots.txt obeyed.
 */
export function siteMapOptions(
  url: string,
  overrides: Pick<MapOptions, 'limit'> & Partial<Omit<MapOptions, 'url'>>,
): MapOptions {
  return {
    url,
    sitemap: 'include',
    includeSubdomains: false,
    ignoreQueryParameters: true,
    filterByPath: true,
    useIndex: true,
    includePaths: [],
    excludePaths: [],
    regexOnFullURL: false,
    ignoreRobotsTxt: false,
    ...overrides,
  };
}
