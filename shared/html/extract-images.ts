import { srcsetCandidates } from './absolutize-urls';
import { resolveUrl } from './resolve-url';

/** Lazy-loading scripts keep the real source here until the image scrolls into view. */
const LAZY_SOURCES = ['data-src', 'data-lazy-src', 'data-original'];

/**
 * The `images` format (docs/wire-contract.md §16): every image the page references, absolute and once
 * each, in document order: og:image and twitter:image first (a page's chosen picture), then
 * `<img>` src, lazy sources and srcset candidates, `<picture>` sources, `<video poster>`.
 * Inline `data:` images are left out: they are not addresses.
 */
export function extractImages(document: Document, baseUrl: string): string[] {
  const found = new Set<string>();
  const add = (value: string | null | undefined) => {
    const trimmed = value?.trim();
    if (!trimmed) return;
    const absolute = resolveUrl(trimmed, baseUrl);
    if (absolute !== undefined && /^https?:/i.test(absolute)) found.add(absolute);
  };

  for (const meta of document.querySelectorAll(
    'meta[property="og:image"], meta[property="og:image:url"], meta[property="og:image:secure_url"], meta[name="twitter:image"]',
  )) {
    add(meta.getAttribute('content'));
  }
  for (const element of document.querySelectorAll('img, picture source, video[poster], input[type=image]')) {
    if (element.localName === 'video') {
      add(element.getAttribute('poster'));
      continue;
    }
    add(element.getAttribute('src'));
    for (const name of LAZY_SOURCES) add(element.getAttribute(name));
    for (const name of ['srcset', 'data-srcset']) {
      for (const { url } of srcsetCandidates(element.getAttribute(name) ?? '')) add(url);
    }
  }
  return [...found];
}
