import type { SearchCategory } from '../../../shared/api/v2/search-request';
import { classifyHost } from '../../../shared/url/classify-host';
import { categoryOf } from './engine-query';
import type { ParsedQuery } from '../../platform/text';
import type { ImageResult, SearchResults } from './search-provider';

/** Whether Tabhive could scrape this URL at all (`ignoreInvalidURLs`): http(s), a host the URL policy does not refuse outright. */
export function isScrapableUrl(url: string, allowPrivateNetworks: boolean): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.username !== '') return false;
  const host = classifyHost(parsed);
  return (
    host.kind === 'public' || host.kind === 'needs-dns' || (host.kind === 'private' && allowPrivateNetworks)
  );
}

/** `imagesize:` and `larger:` on images whose size the engine reported; engines apply them to the rest. */
function fitsSize(image: ImageResult, query: ParsedQuery): boolean {
  const { imageWidth: width, imageHeight: height } = image;
  if (width === undefined || height === undefined) return true;
  if (query.imageSize && (width !== query.imageSize.width || height !== query.imageSize.height)) return false;
  if (query.larger && (width < query.larger.width || height < query.larger.height)) return false;
  return true;
}

const numbered = <T extends { position?: number }>(items: readonly T[], limit: number): T[] =>
  items.slice(0, limit).map((item, index) => ({ ...item, position: index + 1 }));

/**
 * What a provider found, cut to what the caller asked for: only the requested sources, at most
 * `limit` each, numbered from 1, tagged with their category, images sized as `imagesize:` and
 * `larger:` say, and (with `ignoreInvalidURLs`) web results Tabhive could not scrape removed.
 * Empty sources are left out, as Firecrawl leaves them out (docs/wire-contract.md §13.2).
 */
export function filterResults(
  found: SearchResults,
  {
    sources,
    limit,
    query,
    categories,
    ignoreInvalidURLs,
    allowPrivateNetworks,
  }: {
    sources: readonly string[];
    limit: number;
    query: ParsedQuery;
    categories: readonly SearchCategory[];
    ignoreInvalidURLs: boolean;
    allowPrivateNetworks: boolean;
  },
): { results: SearchResults; removedInvalid: number } {
  const tag = <T extends { url?: string; category?: string }>(item: T): T => {
    const category =
      categories.length > 0 && item.url !== undefined ? categoryOf(item.url, categories) : undefined;
    return category === undefined ? item : { ...item, category };
  };
  const web = (found.web ?? []).filter(
    (item) => !ignoreInvalidURLs || isScrapableUrl(item.url, allowPrivateNetworks),
  );
  const removedInvalid = (found.web?.length ?? 0) - web.length;
  const results: SearchResults = {};
  if (sources.includes('web') && web.length > 0) results.web = numbered(web.map(tag), limit);
  const news = found.news ?? [];
  if (sources.includes('news') && news.length > 0) results.news = numbered(news.map(tag), limit);
  const images = (found.images ?? []).filter((image) => fitsSize(image, query));
  if (sources.includes('images') && images.length > 0) results.images = numbered(images, limit);
  return { results, removedInvalid };
}
