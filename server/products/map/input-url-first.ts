import { listedMapUrl, normalizeMapUrl } from './normalize-map-url';

/**
 * `/v1/map`'s answer (docs/wire-contract.md §11.4): the input URL first, as the caller wrote it
 * less its fragment (and query with `ignoreQueryParameters`), then the map's links without the
 * same page again (`…/docs` and `…/docs/` are one), cut to `limit`.
 */
export function inputUrlFirst(
  input: string,
  links: readonly string[],
  options: { ignoreQueryParameters: boolean; limit: number },
): string[] {
  const keyOf = (url: string) => normalizeMapUrl(url, options)?.href ?? url;
  const seed = listedMapUrl(input, options)?.href ?? input;
  const seedKey = keyOf(seed);
  return [seed, ...links.filter((url) => keyOf(url) !== seedKey)].slice(0, options.limit);
}
