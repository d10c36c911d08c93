type MapUrlOptions = { ignoreQueryParameters: boolean };

/**
 * A URL as a map lists it, or undefined when it is not an http(s) URL: no fragment, no query with
 * `ignoreQueryParameters`, and otherwise as the site wrote it, so `…/docs/` stays `…/docs/` (the
 * form the site serves without a redirect).
 */
export function listedMapUrl(raw: string, { ignoreQueryParameters }: MapUrlOptions): URL | undefined {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username !== '' || url.password !== '') return undefined;
  url.hash = '';
  if (ignoreQueryParameters) url.search = '';
  return url;
}

/**
 * The key under which a map merges URLs (docs/wire-contract.md §12.3 step 7): the listed form less
 * a trailing slash except on the root path, so that `…/docs/` and `…/docs` are one entry. Undefined
 * when the URL is not an http(s) URL.
 */
export function normalizeMapUrl(raw: string, options: MapUrlOptions): URL | undefined {
  const url = listedMapUrl(raw, options);
  if (url === undefined) return undefined;
  return withoutTrailingSlash(url);
}

/** `normalizeMapUrl` of a URL already in its listed form, as a string. */
export const mapUrlKey = (listed: URL): string => withoutTrailingSlash(new URL(listed.href)).href;

function withoutTrailingSlash(url: URL): URL {
  if (url.pathname.length > 1 && url.pathname.endsWith('/')) url.pathname = url.pathname.replace(/\/+$/, '');
  return url;
}
