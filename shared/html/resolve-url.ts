/** Resolves `url` against `base`; undefined when either is not a valid URL. */
export function resolveUrl(url: string, base: string): string | undefined {
  try {
    return new URL(url, base).href;
  } catch {
    return undefined;
  }
}

/**
 * The URL relative references in `document` resolve against: the first `<base href>` (itself
 * resolved against the page URL, as browsers do), else the page URL.
 */
export function documentBaseUrl(document: Document, pageUrl: string): string {
  const href = document.querySelector('base[href]')?.getAttribute('href');
  return (href ? resolveUrl(href, pageUrl) : undefined) ?? pageUrl;
}
