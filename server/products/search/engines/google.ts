import { parseHtml } from '../../../../shared/html/parse-html';
import type { ImageResult, NewsResult, WebResult } from '../search-provider';
import { absoluteUrl, textOf, type SearchEngine } from './search-engine';

/** Google's result links may go through `/url?q=<target>` (or `url=`); the target is the result. */
function unwrapRedirect(href: string | null, base: string): string | undefined {
  const url = absoluteUrl(href, base);
  if (url === undefined) return undefined;
  const parsed = new URL(url);
  if (parsed.pathname === '/url') {
    return absoluteUrl(parsed.searchParams.get('q') ?? parsed.searchParams.get('url'), base);
  }
  // Links back into Google itself (more results, images of the same query) are not results.
  const intoGoogle = /(^|\.)google\.[a-z.]+$/.test(parsed.hostname) || parsed.host === new URL(base).host;
  return intoGoogle && parsed.pathname === '/search' ? undefined : url;
}

const SNIPPET_SELECTORS = ['.VwiC3b', '[data-sncf]', '.IsZvec', '.st'];

export function parseGoogleWeb(html: string, pageUrl: string): WebResult[] {
  const document = parseHtml(html);
  const root = document.querySelector('#search') ?? document.querySelector('#rso') ?? document.body;
  const results: WebResult[] = [];
  const seen = new Set<string>();
  // Every organic result is a link around an h3, in blocks whose class names change often; the
  // link and its heading are the stable part.
  for (const heading of Array.from(root.querySelectorAll('a h3'))) {
    const link = heading.closest('a');
    const url = unwrapRedirect(link?.getAttribute('href') ?? null, pageUrl);
    if (url === undefined || seen.has(url)) continue;
    seen.add(url);
    const block = heading.closest('.g') ?? heading.closest('.MjjYud') ?? link?.parentElement?.parentElement;
    let description = '';
    for (const selector of SNIPPET_SELECTORS) {
      description = textOf(block?.querySelector(selector));
      if (description !== '') break;
    }
    results.push({ url, title: textOf(heading), description });
  }
  return results;
}

export function parseGoogleNews(html: string, pageUrl: string): NewsResult[] {
  const document = parseHtml(html);
  const results: NewsResult[] = [];
  for (const block of Array.from(document.querySelectorAll('.SoaBEf'))) {
    const link = block.querySelector('a');
    const url = unwrapRedirect(link?.getAttribute('href') ?? null, pageUrl);
    if (url === undefined) continue;
    const date = textOf(block.querySelector('.OSrXXb span') ?? block.querySelector('.OSrXXb'));
    const imageUrl = absoluteUrl(block.querySelector('img')?.getAttribute('src'), pageUrl);
    results.push({
      title: textOf(block.querySelector('[role="heading"]')),
      url,
      snippet: textOf(block.querySelector('.GI74Re')),
      ...(date === '' ? {} : { date }),
      ...(imageUrl === undefined ? {} : { imageUrl }),
    });
  }
  return results;
}

export function parseGoogleImages(html: string, pageUrl: string): ImageResult[] {
  const document = parseHtml(html);
  const results: ImageResult[] = [];
  // The image tab links each tile to /imgres?imgurl=<image>&imgrefurl=<page>&w=&h=.
  for (const link of Array.from(document.querySelectorAll('a[href*="/imgres?"]'))) {
    const href = absoluteUrl(link.getAttribute('href'), pageUrl);
    if (href === undefined) continue;
    const params = new URL(href).searchParams;
    const imageUrl = absoluteUrl(params.get('imgurl'), pageUrl);
    if (imageUrl === undefined) continue;
    const page = absoluteUrl(params.get('imgrefurl'), pageUrl);
    const width = Number(params.get('w'));
    const height = Number(params.get('h'));
    const tile = link.closest('[data-docid]') ?? link.parentElement;
    const title = textOf(tile?.querySelector('h3')) || (link.querySelector('img')?.getAttribute('alt') ?? '');
    results.push({
      ...(title === '' ? {} : { title }),
      imageUrl,
      ...(width > 0 && height > 0 ? { imageWidth: width, imageHeight: height } : {}),
      ...(page === undefined ? {} : { url: page }),
    });
  }
  return results;
}

/** Google: /search, with `tbm=nws` for news and `tbm=isch` for images. */
export const google: SearchEngine = {
  name: 'google',
  resultPageUrl(query, source) {
    const url = new URL('https://www.google.com/search');
    url.searchParams.set('q', query.text);
    url.searchParams.set('hl', query.lang);
    url.searchParams.set('gl', query.country.toLowerCase());
    if (source === 'web') url.searchParams.set('num', String(Math.min(query.limit, 100)));
    if (source === 'news') url.searchParams.set('tbm', 'nws');
    if (source === 'images') url.searchParams.set('tbm', 'isch');
    if (query.tbs !== undefined) url.searchParams.set('tbs', query.tbs);
    if (query.filter !== undefined) url.searchParams.set('filter', query.filter);
    if (query.location !== undefined) url.searchParams.set('near', query.location);
    return url;
  },
  renderWaitMs: () => 0,
  parseWeb: parseGoogleWeb,
  parseNews: parseGoogleNews,
  parseImages: parseGoogleImages,
};
