import { type DonatedRoutes, donatedRouteUnavailable, routesToDonated } from '../../browsers/hub';
import type { Egress } from '../../platform/egress';
import { TabhiveError, errors } from '../../platform/errors';
import { fetchRobots, compilePatterns, PatternError, type RobotsRules } from '../jobs';
import type { Log } from '../../platform/log';
import { checkUrl, type SiteFiles } from '../../scrape';
import type { Scraper } from '../../scrape/types';
import { PUBLIC_SCOPE, type MapIndexStore, type SitemapFetchStore } from '../../platform/store';
import type { UrlPolicy } from '../../platform/url-policy';
import type { MapCharging } from './charge-map';
import type { MapIndexRecorder } from './create-map-index-recorder';
import { createMapFilter } from './map-filter';
import type { MapLink } from './map-link';
import type { MapOptions } from './map-options';
import { mergeMapLinks } from './merge-map-links';
import { rankBySearch } from './rank-by-search';
import { domainOf } from './site-names';
import { sitemapUrls } from './sitemap-source';
import { startPageLinks } from './start-page-links';

/** The start page may take this long when the caller set no timeout. */
const START_PAGE_TIMEOUT_MS = 30_000;
/** Index entries read per map at most: the largest answer a map may give. */
export const MAX_MAP_LIMIT = 100_000;

/**
 * `/map`: the URLs of a site, quickly, without scraping it (docs/wire-contract.md §12). Sources, all at once:
 * the sitemaps (robots.txt, usual places, indexes, gzip), the start page's links (from the cache
 * or a browser), and the map index of everything Tabhive saw on the domain before — scraped and
 * crawled pages with their titles, earlier sitemaps and links — within the caller's team scope.
 * Merged without repeats, filtered to the site, ranked by `search` when given, cut to `limit`.
 *
 * A site only the team's donated browser may reach (an intranet its owner allowed) is mapped from
 * that browser alone: its robots.txt, sitemaps and start page are read there, never by the server,
 * and only the team's own map index adds to it (and learns its sitemaps).
 */
export function createMapper(deps: {
  egress: Egress;
  scraper: Scraper;
  urlPolicy: UrlPolicy;
  /** Which sites only the team's donated browser may reach; without it, none. */
  donatedRoutes?: DonatedRoutes | undefined;
  /** Who reads robots.txt and sitemaps for a team; without it, the egress. */
  siteFiles?: SiteFiles | undefined;
  mapIndex: MapIndexStore;
  sitemapFetches: SitemapFetchStore;
  recorder: MapIndexRecorder;
  charging: MapCharging;
  log: Log;
}) {
  const { egress, urlPolicy, mapIndex, charging, donatedRoutes, siteFiles } = deps;

  async function collect(
    options: MapOptions,
    teamId: string,
    deadline: number | undefined,
  ): Promise<MapLink[]> {
    const start = new URL(options.url);
    let patterns;
    try {
      patterns = compilePatterns(options);
    } catch (err) {
      if (err instanceof PatternError) throw new TabhiveError('invalid-input', err.message);
      throw err;
    }
    const route = await donatedRoutes?.routeFor(teamId, start.href);
    await checkUrl({ target: start, checksUrl: true, donatedRoute: route }, urlPolicy);
    const teamSite = routesToDonated(route);
    // The map is waited for: a browser that is away is said at once, as a scrape does.
    if (teamSite && (route.state === 'offline' || route.state === 'paused')) {
      throw errors.donatedBrowserUnavailable(donatedRouteUnavailable(route, start.hostname));
    }
    const reader = siteFiles?.forTeam(teamId) ?? egress;

    const robotsPromise: Promise<RobotsRules | undefined> = options.ignoreRobotsTxt
      ? Promise.resolve(undefined)
      : fetchRobots(reader, start.origin);
    const fromSitemaps =
      options.sitemap === 'skip'
        ? Promise.resolve([])
        : robotsPromise.then((robots) =>
            sitemapUrls({ ...deps, reader, start, robots, teamSite: teamSite ? teamId : undefined }),
          );
    const fromPage =
      options.sitemap === 'only'
        ? Promise.resolve([])
        : startPageLinks({
            ...deps,
            start,
            teamId,
            timeoutMs: deadline === undefined ? START_PAGE_TIMEOUT_MS : Math.max(1, deadline - Date.now()),
            location: options.location,
            // Never a plain fetch by the server of a site only the donated browser may reach.
            plainFallback: !teamSite,
          });
    const fromIndex =
      options.sitemap === 'only' || !options.useIndex
        ? Promise.resolve([])
        : mapIndex
            .listDomain({
              domain: domainOf(start),
              scopes: teamSite ? [teamId] : [PUBLIC_SCOPE, teamId],
              limit: MAX_MAP_LIMIT,
            })
            // Without sitemaps, only what pages showed: sitemap entries of earlier maps stay out.
            .then((entries) =>
              options.sitemap === 'skip' ? entries.filter((entry) => entry.onPage === true) : entries,
            );
    const [robots, sitemap, page, indexed] = await Promise.all([
      robotsPromise,
      fromSitemaps,
      fromPage,
      fromIndex,
    ]);

    const keep = createMapFilter({
      start,
      includeSubdomains: options.includeSubdomains,
      filterByPath: options.filterByPath,
      include: patterns.include,
      exclude: patterns.exclude,
      regexOnFullURL: options.regexOnFullURL,
      robots,
    });
    // The start page leads, then sitemap order, then its links, then what the index adds.
    const candidates: MapLink[] = [
      ...page.slice(0, 1),
      ...sitemap.map((url) => ({ url })),
      ...page.slice(1),
      ...indexed.map(({ url, title, description }) => ({
        url,
        ...(title === undefined ? {} : { title }),
        ...(description === undefined ? {} : { description }),
      })),
    ];
    const links = mergeMapLinks(candidates, options, keep);
    const ranked =
      options.search === undefined || options.search.trim() === ''
        ? links
        : rankBySearch(links, options.search);
    return ranked.slice(0, options.limit);
  }

  return {
    async map(options: MapOptions, teamId: string): Promise<MapLink[]> {
      await charging.ensureCredit(teamId);
      const deadline = options.timeout === undefined ? undefined : Date.now() + options.timeout;
      const work = collect(options, teamId, deadline);
      let links: MapLink[];
      if (deadline === undefined) links = await work;
      else {
        // Work past the deadline runs out on its own (every fetch has a timeout); its answer is dropped.
        work.catch(() => undefined);
        let timer: NodeJS.Timeout | undefined;
        const timedOut = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(errors.mapTimeout()), Math.max(0, deadline - Date.now()));
        });
        try {
          links = await Promise.race([work, timedOut]);
        } finally {
          clearTimeout(timer);
        }
      }
      await charging.charge(teamId);
      return links;
    },
  };
}

export type Mapper = ReturnType<typeof createMapper>;
