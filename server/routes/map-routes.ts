import Router from '@koa/router';
import type { Middleware } from 'koa';
import { MapRequestV1 } from '../../shared/api/v1/map-request';
import { MapRequestV2 } from '../../shared/api/v2/map-request';
import { teamOf } from '../http/authenticate';
import { parseBody } from '../http/parse-body';
import type { Mapper } from '../map/create-mapper';
import type { MapOptions } from '../map/map-options';
import { normalizeMapUrl } from '../map/normalize-map-url';

/** The fields both versions name alike. */
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

/** `POST /v2/map` (objects) and `POST /v1/map` (strings, the input URL first): contract §12, §11.4. */
export function mapRoutes({ mapper, api }: { mapper: Mapper; api: Middleware }): Router {
  const router = new Router();

  router.post('/v2/map', api, async (ctx) => {
    const request = parseBody(MapRequestV2, ctx.request.body);
    const options: MapOptions = {
      ...sharedOptions(request),
      sitemap: request.sitemap,
      location: request.location,
    };
    ctx.body = { success: true, links: await mapper.map(options, teamOf(ctx).id) };
  });

  router.post('/v1/map', api, async (ctx) => {
    const request = parseBody(MapRequestV1, ctx.request.body);
    const options: MapOptions = {
      ...sharedOptions(request),
      sitemap: request.sitemapOnly ? 'only' : request.ignoreSitemap ? 'skip' : 'include',
    };
    const links = (await mapper.map(options, teamOf(ctx).id)).map((link) => link.url);
    // v1 seeds its answer with the input URL itself (contract §11.4).
    const seed = normalizeMapUrl(request.url.url, options)?.href ?? request.url.url;
    const seeded = [seed, ...links.filter((url) => url !== seed)].slice(0, request.limit);
    ctx.body = { success: true, links: options.sitemap === 'only' ? links : seeded };
  });

  return router;
}
