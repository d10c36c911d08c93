import { parseHtml } from './parse-html';
import { documentBaseUrl, resolveUrl } from './resolve-url';

/** Schemes whose "links" lead nowhere a reader or crawler could go. */
const DROPPED_SCHEMES = /^(?:javascript|vbscript|data):/i;

/**
 * The `links` format: absolute URLs of every `<a href>`, in document order without repeats,
 * resolved against `<base href>` or `baseUrl`. Links to a place on the same page (`#…` or an empty
 * href) and script or data URLs are dropped; `mailto:`, `tel:` and other schemes are kept.
 */
export function extractLinks(source: string | Document, baseUrl: string): string[] {
  const document = typeof source === 'string' ? parseHtml(source) : source;
  const base = documentBaseUrl(document, baseUrl);
  const links = new Set<string>();
  for (const anchor of document.querySelectorAll('a[href]')) {
    // The URL parser ignores surrounding whitespace, so the checks below must too.
    const href = (anchor.getAttribute('href') ?? '').trim();
    if (href === '' || href.startsWith('#')) continue;
    const url = resolveUrl(href, base);
    if (url !== undefined && !DROPPED_SCHEMES.test(url)) links.add(url);
  }
  return [...links];
}
