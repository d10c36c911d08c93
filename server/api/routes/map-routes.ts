import Router from '@koa/router';
import type { Middleware } from 'koa';
import { MapRequestV1 } from '../../../shared/api/v1/map-request';
import { MapRequestV2 } from '../../../shared/api/v2/map-request';
import { teamOf } from '../http';
import { parseBody } from '../../platform/input';
import { type Mapper, inputUrlFirst, mapOptionsV1, mapOptionsV2 } from '../../products/map';

/** `POST /v2/map` (objects) and `POST /v1/map` (strings, the input URL first): docs/wire-contract.md §12, §11.4. */
export function mapRoutes({ mapper, api }: { mapper: Mapper; api: Middleware }): Router {
  const router = new Router();

  router.post('/v2/map', api, async (ctx) => {
    const request = parseBody(MapRequestV2, ctx.request.body);
    ctx.body = { success: true, links: await mapper.map(mapOptionsV2(request), teamOf(ctx).id) };
  });

  router.post('/v1/map', api, async (ctx) => {
    const request = parseBody(MapRequestV1, ctx.request.body);
    const options = mapOptionsV1(request);
    const links = (await mapper.map(options, teamOf(ctx).id)).map((link) => link.url);
    // v1 seeds its answer with the input URL itself (docs/wire-contract.md §11.4).
    const seeded = inputUrlFirst(request.url.url, links, options);
    ctx.body = { success: true, links: options.sitemap === 'only' ? links : seeded };
  });

  return router;
}
