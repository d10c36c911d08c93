import { z } from 'zod';
import { parseHtml } from '../../../../shared/html/parse-html';
import type { ImageResult, NewsResult, WebResult } from '../search-provider';
import { absoluteUrl, pixelSizeIn, textOf, timeFilterOf, type SearchEngine } from './search-engine';

/**
 * Bing may send clicks through `/ck/a?…&u=a1<base64url of the target>`; the target is the result.
 */
function unwrapRedirect(href: string | null, base: string): string | undefined {
  const url = absoluteUrl(href, base);
  if (url === undefined) return undefined;
  const parsed = new URL(url);
  const encoded = parsed.pathname === '/ck/a' ? parsed.searchParams.get('u') : null;
  if (encoded === null || !encoded.startsWith('a1')) return url;
  const decoded = Buffer.from(encoded.slice(2), 'base64url').toString('utf8');
  return absoluteUrl(decoded, base);
}

/** The JSON in an image tile's `m` attribute: image (`murl`), page (`purl`), title (`t`). */
const ImageMetadata = z.looseObject({
  murl: z.string().optional(),
  purl: z.string().optional(),
  t: z.string().optional(),
  turl: z.string().optional(),
});

export function parseBingWeb(html: string, pageUrl: string): WebResult[] {
  const document = parseHtml(html);
  const results: WebResult[] = [];
  for (const block of Array.from(document.querySelectorAll('#b_results > li.b_algo'))) {
    const link = block.querySelector('h2 a');
    const url = unwrapRedirect(link?.getAttribute('href') ?? null, pageUrl);
    if (link === null || url === undefined) continue;
    const snippet = block.querySelector('.b_caption p') ?? block.querySelector('p');
    results.push({ url, title: textOf(link), description: textOf(snippet) });
  }
  return results;
}

export function parseBingNews(html: string, pageUrl: string): NewsResult[] {
  const document = parseHtml(html);
  const results: NewsResult[] = [];
  for (const card of Array.from(document.querySelectorAll('.news-card'))) {
    const link = card.querySelector('a.title');
    const url = absoluteUrl(card.getAttribute('data-url') ?? link?.getAttribute('href'), pageUrl);
    if (url === undefined) continue;
    const title = card.getAttribute('data-title') ?? textOf(link);
    const snippetElement = card.querySelector('.snippet');
    const snippet = snippetElement?.getAttribute('title') ?? textOf(snippetElement);
    const date = card.querySelector('.source span[aria-label]')?.getAttribute('aria-label') ?? '';
    const image = card.querySelector('.image img');
    const imageUrl = absoluteUrl(image?.getAttribute('data-src') ?? image?.getAttribute('src'), pageUrl);
    results.push({
      title,
      url,
      snippet,
      ...(date === '' ? {} : { date }),
      ...(imageUrl === undefined ? {} : { imageUrl }),
    });
  }
  return results;
}

export function parseBingImages(html: string, pageUrl: string): ImageResult[] {
  const document = parseHtml(html);
  const results: ImageResult[] = [];
  for (const tile of Array.from(document.querySelectorAll('a.iusc'))) {
    let metadata: z.infer<typeof ImageMetadata>;
    try {
      metadata = ImageMetadata.parse(JSON.parse(tile.getAttribute('m') ?? ''));
    } catch {
      continue;
    }
    const imageUrl = absoluteUrl(metadata.murl, pageUrl);
    if (imageUrl === undefined) continue;
    const page = absoluteUrl(metadata.purl, pageUrl);
    const info = tile.closest('li')?.querySelector('.img_info');
    results.push({
      ...(metadata.t === undefined ? {} : { title: metadata.t }),
      imageUrl,
      ...pixelSizeIn(textOf(info)),
      ...(page === undefined ? {} : { url: page }),
    });
  }
  return results;
}

/** Bing's time filters: `ez1` a day, `ez2` a week, `ez3` a month; news counts minutes' intervals. */
const WEB_FILTER: Record<string, string> = { h: 'ez1', d: 'ez1', w: 'ez2', m: 'ez3' };
const NEWS_INTERVAL: Record<string, string> = { h: '4', d: '7', w: '8', m: '9' };

/** Bing: /search, /news/search and /images/search, all rendered on the server. */
export const bing: SearchEngine = {
  name: 'bing',
  resultPageUrl(query, source) {
    const path = source === 'web' ? '/search' : source === 'news' ? '/news/search' : '/images/search';
    const url = new URL(path, 'https://www.bing.com');
    url.searchParams.set('q', query.text);
    url.searchParams.set('setlang', query.lang);
    url.searchParams.set('cc', query.country.toUpperCase());
    const filter = timeFilterOf(query.tbs);
    if (source === 'web') {
      url.searchParams.set('count', String(Math.min(query.limit, 50)));
      if (filter !== undefined && WEB_FILTER[filter] !== undefined) {
        url.searchParams.set('filters', `ex1:"${WEB_FILTER[filter]}"`);
      }
    } else if (source === 'news' && filter !== undefined && NEWS_INTERVAL[filter] !== undefined) {
      url.searchParams.set('qft', `interval="${NEWS_INTERVAL[filter]}"`);
    } else if (source === 'images') {
      const size = query.parsed.imageSize ?? query.parsed.larger;
      if (size !== undefined)
        url.searchParams.set('qft', `+filterui:imagesize-custom_${size.width}_${size.height}`);
    }
    return url;
  },
  renderWaitMs: (source) => (source === 'web' ? 0 : 1_000),
  parseWeb: parseBingWeb,
  parseNews: parseBingNews,
  parseImages: parseBingImages,
};
