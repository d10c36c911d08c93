import type { MapLink } from './map-link';
import { listedMapUrl, mapUrlKey } from './normalize-map-url';

/**
 * The candidates of a map, in order, merged into its links: each URL in its listed form (as the
 * first candidate that named it wrote it; `…/docs/` stays `…/docs/`), kept when `keep` admits its
 * key, and once per key (normalize-map-url.ts), so `…/docs` after `…/docs/` is the same entry. A title
 * or description any of the repeats had is kept.
 */
export function mergeMapLinks(
  candidates: readonly MapLink[],
  options: { ignoreQueryParameters: boolean },
  keep: (url: URL) => boolean,
): MapLink[] {
  const merged = new Map<string, MapLink>();
  for (const candidate of candidates) {
    const url = listedMapUrl(candidate.url, options);
    if (url === undefined) continue;
    const key = mapUrlKey(url);
    // The filters read the key's form, as they did when maps listed that form.
    if (!keep(new URL(key))) continue;
    const known = merged.get(key);
    const title = known?.title ?? candidate.title;
    const description = known?.description ?? candidate.description;
    merged.set(key, {
      url: known?.url ?? url.href,
      ...(title ? { title } : {}),
      ...(description ? { description } : {}),
    });
  }
  return [...merged.values()];
}
