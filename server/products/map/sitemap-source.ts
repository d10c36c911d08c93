import { fetchSitemapUrls, type RobotsRules, type SiteFileReader } from '../jobs';
import { PUBLIC_SCOPE, type MapIndexStore, type SitemapFetchStore } from '../../platform/store';
import type { MapIndexRecorder } from './create-map-index-recorder';
import { domainOf } from './site-names';

/** Sitemap URLs read back from the index at most (the largest map answer). */
const MAX_INDEXED_SITEMAP_URLS = 100_000;

/**
 * The site's sitemap URLs: read from the map index when this start's sitemaps were fetched in the
 * last 48 hours, otherwise fetched (robots.txt `Sitemap:` lines, the usual locations, indexes and
 * gzipped files) and written to the index, marked as sitemap entries, for the next map.
 *
 * A site only a team's donated browser may reach (`teamSite`, the team's id) is read fresh each
 * time through that browser, and its entries join the team's own scope only.
 */
export async function sitemapUrls({
  reader,
  mapIndex,
  sitemapFetches,
  recorder,
  start,
  robots,
  teamSite,
}: {
  reader: SiteFileReader;
  mapIndex: MapIndexStore;
  sitemapFetches: SitemapFetchStore;
  recorder: MapIndexRecorder;
  start: URL;
  robots: RobotsRules | undefined;
  teamSite?: string | undefined;
}): Promise<string[]> {
  if (teamSite !== undefined) {
    const urls = await fetchSitemapUrls(reader, start, robots);
    const key = `${teamSite} ${start.origin}${start.pathname}`;
    void recorder.recordSitemapUrls(key, urls, teamSite).catch(() => undefined);
    return urls;
  }
  // A start URL with a query or credentials may name a private sitemap (`…/feed.xml?token=…`):
  // its entries are read fresh each time and never join the index every team's map reads.
  if (start.search !== '' || start.username !== '' || start.password !== '')
    return fetchSitemapUrls(reader, start, robots);
  const key = `${start.origin}${start.pathname}`;
  if ((await sitemapFetches.fresh(key)) !== undefined) {
    const entries = await mapIndex.listDomain({
      domain: domainOf(start),
      scopes: [PUBLIC_SCOPE],
      limit: MAX_INDEXED_SITEMAP_URLS,
    });
    return entries.filter((entry) => entry.inSitemap === true).map((entry) => entry.url);
  }
  const urls = await fetchSitemapUrls(reader, start, robots);
  // Marked only once the entries are written, so a map that trusts the mark finds them all.
  void recorder
    .recordSitemapUrls(key, urls, PUBLIC_SCOPE)
    .then(() => sitemapFetches.markFetched(key, urls.length))
    .catch(() => undefined);
  return urls;
}
