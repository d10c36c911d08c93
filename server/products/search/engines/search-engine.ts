import type { ImageResult, NewsResult, SearchQuery, SearchSource, WebResult } from '../search-provider';

/**
 * A search engine as browser search drives it: where its result pages are and how to read them.
 * Parsers are pure functions of the page's HTML (tested on saved pages in test/fixtures/serp).
 */
export interface SearchEngine {
  readonly name: 'duckduckgo' | 'bing' | 'google';
  resultPageUrl(query: SearchQuery, source: SearchSource): URL;
  /** Pages whose results a script renders need this long after load before they are read. */
  renderWaitMs(source: SearchSource): number;
  parseWeb(html: string, pageUrl: string): WebResult[];
  parseNews(html: string, pageUrl: string): NewsResult[];
  parseImages(html: string, pageUrl: string): ImageResult[];
}

/** An element's text with its whitespace collapsed. */
export function textOf(element: Element | null | undefined): string {
  return (element?.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** An absolute http(s) URL from an href on the page, or undefined. */
export function absoluteUrl(href: string | null | undefined, base: string): string | undefined {
  if (href === null || href === undefined || href === '') return undefined;
  try {
    const url = new URL(href, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** `1920 × 1080`, `1920 x 1080 · jpeg`, `1920x1080`. */
export function pixelSizeIn(text: string): { imageWidth: number; imageHeight: number } | undefined {
  const match = /(\d+)\s*[x×]\s*(\d+)/.exec(text);
  return match === null ? undefined : { imageWidth: Number(match[1]), imageHeight: Number(match[2]) };
}

/** Google's `tbs` time filter as one of day/week/month/year, which the other engines name differently. */
export function timeFilterOf(tbs: string | undefined): 'h' | 'd' | 'w' | 'm' | 'y' | undefined {
  return /qdr:([hdwmy])/.exec(tbs ?? '')?.[1] as 'h' | 'd' | 'w' | 'm' | 'y' | undefined;
}

/** Engines' result pages with every origin replaced by `baseUrl` (SEARCH_ENGINE_URL), path and query kept. */
export function onBase(url: URL, baseUrl: string | undefined): URL {
  if (baseUrl === undefined) return url;
  const base = new URL(baseUrl);
  const moved = new URL(url.pathname + url.search, base);
  return moved;
}
