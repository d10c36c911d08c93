/**
 * The form a URL takes in a map answer, or undefined when it is not an http(s) URL: no fragment,
 * no query with `ignoreQueryParameters`, no trailing slash except on the root path (docs/wire-contract.md
 * §12.3 step 7), so `…/docs/` and `…/docs` are one entry.
 */
export function normalizeMapUrl(raw: string, { ignoreQueryParameters }: { ignoreQueryParameters: boolean }) {
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
  if (url.pathname.length > 1 && url.pathname.endsWith('/')) url.pathname = url.pathname.replace(/\/+$/, '');
  return url;
}
