import { z } from 'zod';
import type { Egress } from '../../platform/egress';
import type {
  ImageResult,
  NewsResult,
  SearchProvider,
  SearchQuery,
  SearchSource,
  WebResult,
} from './search-provider';

const REQUEST_TIMEOUT_MS = 15_000;
const MAX_RESPONSE_BYTES = 5 * 1024 * 1024;
/** SearXNG answers 10–30 results a page; a search reads at most this many pages per source. */
const MAX_PAGES = 3;

/** The part of SearXNG's `format=json` answer that search reads; other fields are ignored. */
const SearxngResult = z.looseObject({
  url: z.string().optional(),
  title: z.string().optional(),
  content: z.string().optional(),
  publishedDate: z.string().nullable().optional(),
  img_src: z.string().optional(),
  thumbnail_src: z.string().optional(),
  thumbnail: z.string().nullable().optional(),
  resolution: z.string().nullable().optional(),
});
const SearxngAnswer = z.looseObject({ results: z.array(SearxngResult) });
type SearxngResult = z.infer<typeof SearxngResult>;

const CATEGORY: Record<SearchSource, string> = { web: 'general', news: 'news', images: 'images' };

/** Google's `tbs=qdr:x` as SearXNG's time_range; custom ranges (`cdr:`) have no equivalent. */
function timeRange(tbs: string | undefined): string | undefined {
  const unit = /qdr:([hdwmy])/.exec(tbs ?? '')?.[1];
  switch (unit) {
    case 'h':
    case 'd':
      return 'day';
    case 'w':
      return 'week';
    case 'm':
      return 'month';
    case 'y':
      return 'year';
    default:
      return undefined;
  }
}

/** `1920x1080`, `1920 x 1080` or `1920×1080`. */
function resolution(text: string | null | undefined): { width: number; height: number } | undefined {
  const match = /(\d+)\s*[x×]\s*(\d+)/.exec(text ?? '');
  return match === null ? undefined : { width: Number(match[1]), height: Number(match[2]) };
}

const web = (result: SearxngResult): WebResult | undefined =>
  result.url === undefined
    ? undefined
    : { url: result.url, title: result.title ?? result.url, description: result.content ?? '' };

const news = (result: SearxngResult): NewsResult => ({
  ...(result.title === undefined ? {} : { title: result.title }),
  ...(result.url === undefined ? {} : { url: result.url }),
  ...(result.content === undefined ? {} : { snippet: result.content }),
  ...(result.publishedDate ? { date: result.publishedDate } : {}),
  ...(result.img_src || result.thumbnail ? { imageUrl: result.img_src || result.thumbnail! } : {}),
});

const image = (result: SearxngResult): ImageResult | undefined => {
  if (!result.img_src) return undefined;
  const size = resolution(result.resolution);
  return {
    ...(result.title === undefined ? {} : { title: result.title }),
    imageUrl: result.img_src,
    ...(size === undefined ? {} : { imageWidth: size.width, imageHeight: size.height }),
    ...(result.url === undefined ? {} : { url: result.url }),
  };
};

/**
 * SearXNG through its JSON API (`/search?format=json`; the instance must list `json` under
 * `search.formats`). Each source is one SearXNG category; pages are read until the limit is met.
 * Operators stay in the query text: SearXNG hands them to its engines.
 */
export function createSearxngProvider({
  baseUrl,
  egress,
}: {
  baseUrl: string;
  egress: Egress;
}): SearchProvider {
  const endpoint = new URL('search', baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);

  async function fetchPage(query: SearchQuery, source: SearchSource, page: number) {
    const url = new URL(endpoint);
    url.searchParams.set('q', query.text);
    url.searchParams.set('format', 'json');
    url.searchParams.set('categories', CATEGORY[source]);
    url.searchParams.set('pageno', String(page));
    url.searchParams.set('language', `${query.lang}-${query.country.toUpperCase()}`);
    const range = timeRange(query.tbs);
    if (range !== undefined) url.searchParams.set('time_range', range);
    const response = await egress.get(url.href, {
      timeoutMs: REQUEST_TIMEOUT_MS,
      maxBytes: MAX_RESPONSE_BYTES,
    });
    if (response.status !== 200) throw new Error(`SearXNG answered HTTP ${response.status}`);
    let json: unknown;
    try {
      json = JSON.parse(response.body);
    } catch {
      throw new Error('SearXNG did not answer JSON (is "json" enabled under search.formats?)');
    }
    const parsed = SearxngAnswer.safeParse(json);
    if (!parsed.success) throw new Error('SearXNG answered JSON without a results list');
    return parsed.data.results;
  }

  async function collect<T>(
    query: SearchQuery,
    source: SearchSource,
    convert: (r: SearxngResult) => T | undefined,
  ) {
    const items: T[] = [];
    const seen = new Set<string>();
    for (let page = 1; page <= MAX_PAGES && items.length < query.limit && !query.signal.aborted; page += 1) {
      const results = await fetchPage(query, source, page);
      let added = 0;
      for (const result of results) {
        const key = result.img_src ?? result.url ?? JSON.stringify(result);
        const item = convert(result);
        if (item === undefined || seen.has(key)) continue;
        seen.add(key);
        items.push(item);
        added += 1;
      }
      if (added === 0) break;
    }
    return items.slice(0, query.limit);
  }

  return {
    name: 'searxng',
    async search(query) {
      const [webResults, newsResults, imageResults] = await Promise.all([
        query.sources.includes('web') ? collect(query, 'web', web) : undefined,
        query.sources.includes('news') ? collect(query, 'news', news) : undefined,
        query.sources.includes('images') ? collect(query, 'images', image) : undefined,
      ]);
      return {
        ...(webResults === undefined ? {} : { web: webResults }),
        ...(newsResults === undefined ? {} : { news: newsResults }),
        ...(imageResults === undefined ? {} : { images: imageResults }),
      };
    },
  };
}
