import type { ParsedQuery } from '../../platform/text';

export type SearchSource = 'web' | 'news' | 'images';

/** A web result as docs/wire-contract.md §13.2 gives it; `category` is added by the categories filter. */
export interface WebResult {
  url: string;
  title: string;
  description: string;
  position?: number;
  category?: string;
}

export interface NewsResult {
  title?: string;
  url?: string;
  snippet?: string;
  date?: string;
  imageUrl?: string;
  position?: number;
  category?: string;
}

export interface ImageResult {
  title?: string;
  imageUrl?: string;
  imageWidth?: number;
  imageHeight?: number;
  /** The page the image is on. */
  url?: string;
  position?: number;
}

/** What a provider found, per source; a source it was not asked for, or found nothing for, is absent. */
export interface SearchResults {
  web?: WebResult[];
  news?: NewsResult[];
  images?: ImageResult[];
}

export interface SearchQuery {
  /** The query as the engine should see it, operators included (categories already appended). */
  text: string;
  parsed: ParsedQuery;
  sources: readonly SearchSource[];
  /** Results wanted per source; providers may return more or fewer. */
  limit: number;
  teamId: string;
  /** Time filter (`qdr:d`, `cdr:1,cd_min:…,cd_max:…`). */
  tbs?: string | undefined;
  filter?: string | undefined;
  lang: string;
  country: string;
  location?: string | undefined;
  /** Stops the provider's own requests when the search is given up. */
  signal: AbortSignal;
}

/**
 * Where search results come from, chosen by configuration (SEARCH_PROVIDER): the team's local
 * index, a SearXNG instance, or search engines' result pages opened by the browser pool.
 */
export interface SearchProvider {
  readonly name: 'local' | 'searxng' | 'browser';
  search(query: SearchQuery): Promise<SearchResults>;
}
