import type { MapRequestV1 } from '../../../shared/api/v1/map-request';
import type { MapRequestV2 } from '../../../shared/api/v2/map-request';
import type { MapOptions } from './map-options';

/** The fields both versions of a map request name alike. */
function sharedOptions(request: MapRequestV1 | MapRequestV2) {
  return {
    url: request.url.url,
    search: request.search,
    includeSubdomains: request.includeSubdomains,
    ignoreQueryParameters: request.ignoreQueryParameters,
    limit: request.limit,
    timeout: request.timeout,
    filterByPath: request.filterByPath,
    useIndex: request.useIndex,
    includePaths: request.includePaths,
    excludePaths: request.excludePaths,
    regexOnFullURL: request.regexOnFullURL,
    ignoreRobotsTxt: request.ignoreRobotsTxt,
  };
}

/** The map options of a `POST /v2/map` body (the route and the MCP `firecrawl_map` tool). */
export const mapOptionsV2 = (request: MapRequestV2): MapOptions => ({
  ...sharedOptions(request),
  sitemap: request.sitemap,
  location: request.location,
});

/** The map options of a `POST /v1/map` body: its two sitemap flags become `sitemap`. */
export const mapOptionsV1 = (request: MapRequestV1): MapOptions => ({
  ...sharedOptions(request),
  sitemap: request.sitemapOnly ? 'only' : request.ignoreSitemap ? 'skip' : 'include',
});
