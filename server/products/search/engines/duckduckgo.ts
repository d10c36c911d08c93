import { parseHtml } from '../../../../shared/html/parse-html';
import type { ImageResult, NewsResult, WebResult } from '../search-provider';
import { absoluteUrl, pixelSizeIn, textOf, timeFilterOf, type SearchEngine } from './search-engine';

/** DuckDuckGo sends clicks through `/l/?uddg=<target>`; the target is the result. */
function unwrapRedirect(href: string | null, base: string): string | undefined {
  const url = absoluteUrl(href, base);
  if (url === undefined) return undefined;
  const parsed = new URL(url);
  const target = parsed.pathname === '/l/' ? parsed.searchParams.get('uddg') : null;
  return target === null ? url : absoluteUrl(target, base);
}

/** Thumbnails come through DuckDuckGo's image proxy, `external-content.duckduckgo.com/iu/?u=<image>`. */
function unwrapProxy(src: string | null, base: string): string | undefined {
  const url = absoluteUrl(src, base);
  if (url === undefined) return undefined;
  return new URL(url).searchParams.get('u') ?? url;
}

const DATE_FILTER: Record<string, string> = { h: 'd', d: 'd', w: 'w', m: 'm', y: 'y' };

export function parseDuckDuckGoWeb(html: string, pageUrl: string): WebResult[] {
  const document = parseHtml(html);
  const results: WebResult[] = [];
  for (const block of Array.from(document.querySelectorAll('.result'))) {
    // Sponsored results are marked result--ad; "no results" notices are result--no-result.
    if (block.classList.contains('result--ad') || block.classList.contains('result--no-result')) continue;
    const link = block.querySelector('a.result__a');
    const url = unwrapRedirect(link?.getAttribute('href') ?? null, pageUrl);
    if (link === null || url === undefined) continue;
    results.push({ url, title: textOf(link), description: textOf(block.querySelector('.result__snippet')) });
  }
  return results;
}

export function parseDuckDuckGoNews(html: string, pageUrl: string): NewsResult[] {
  const document = parseHtml(html);
  const results: NewsResult[] = [];
  for (const block of Array.from(document.querySelectorAll('.result--news'))) {
    const link = block.querySelector('a.result__a');
    const url = unwrapRedirect(link?.getAttribute('href') ?? null, pageUrl);
    if (link === null || url === undefined) continue;
    const image = unwrapProxy(
      block.querySelector('.result__image img')?.getAttribute('src') ?? null,
      pageUrl,
    );
    const date = textOf(block.querySelector('.result__timestamp'));
    results.push({
      title: textOf(link),
      url,
      snippet: textOf(block.querySelector('.result__snippet')),
      ...(date === '' ? {} : { date }),
      ...(image === undefined ? {} : { imageUrl: image }),
    });
  }
  return results;
}

export function parseDuckDuckGoImages(html: string, pageUrl: string): ImageResult[] {
  const document = parseHtml(html);
  const results: ImageResult[] = [];
  for (const tile of Array.from(document.querySelectorAll('.tile--img'))) {
    const img = tile.querySelector('img.tile--img__img');
    const imageUrl = unwrapProxy(img?.getAttribute('data-src') ?? img?.getAttribute('src') ?? null, pageUrl);
    if (imageUrl === undefined) continue;
    const page = absoluteUrl(tile.querySelector('a.tile--img__sub')?.getAttribute('href'), pageUrl);
    const title = textOf(tile.querySelector('.tile--img__title')) || (img?.getAttribute('alt') ?? '');
    const size = pixelSizeIn(textOf(tile.querySelector('.tile--img__dimensions')));
    results.push({
      ...(title === '' ? {} : { title }),
      imageUrl,
      ...size,
      ...(page === undefined ? {} : { url: page }),
    });
  }
  return results;
}

/**
 * DuckDuckGo: web results from the script-free html.duckduckgo.com/html/ page; news and images
 * from the regular page's news and image tabs, which a script renders.
 */
export const duckDuckGo: SearchEngine = {
  name: 'duckduckgo',
  resultPageUrl(query, source) {
    const region = `${query.country.toLowerCase()}-${query.lang.toLowerCase()}`;
    const filter = timeFilterOf(query.tbs);
    const url =
      source === 'web' ? new URL('https://html.duckduckgo.com/html/') : new URL('https://duckduckgo.com/');
    url.searchParams.set('q', query.text);
    url.searchParams.set('kl', region);
    if (filter !== undefined) url.searchParams.set('df', DATE_FILTER[filter]!);
    if (source === 'news') {
      url.searchParams.set('iar', 'news');
      url.searchParams.set('ia', 'news');
    } else if (source === 'images') {
      url.searchParams.set('iax', 'images');
      url.searchParams.set('ia', 'images');
    }
    return url;
  },
  renderWaitMs: (source) => (source === 'web' ? 0 : 2_000),
  parseWeb: parseDuckDuckGoWeb,
  parseNews: parseDuckDuckGoNews,
  parseImages: parseDuckDuckGoImages,
};
