import Router from '@koa/router';
import type { Middleware } from 'koa';
import { ExtractRequestV1 } from '../../../shared/api/v1/extract-request';
import { ExtractRequestV2 } from '../../../shared/api/v2/extract-request';
import type { ExtractService } from '../../products/extract';
import { teamOf } from '../http';
import { errors } from '../../platform/errors';
import { parseBody } from '../../platform/input';

/**
 * `POST /v{1,2}/extract` (start a job; `urlTrace` is always empty, as Firecrawl sends it) and
 * `GET /v{1,2}/extract/:id` (its status and, once completed, its data). Both versions answer
 * alike; v1 takes v1 scrape options. Another team's job is not found.
 */
export function extractRoutes({ extract, api }: { extract: ExtractService; api: Middleware }): Router {
  const router = new Router();

  router.post('/v2/extract', api, async (ctx) => {
    const request = parseBody(ExtractRequestV2, ctx.request.body);
    const { id } = await extract.start(teamOf(ctx).id, request, 'v2');
    ctx.body = { success: true, id, urlTrace: [] };
  });

  router.post('/v1/extract', api, async (ctx) => {
    const request = parseBody(ExtractRequestV1, ctx.request.body);
    const { id } = await extract.start(teamOf(ctx).id, request, 'v1');
    ctx.body = { success: true, id, urlTrace: [] };
  });

  const status: Middleware = async (ctx) => {
    const body = await extract.status(teamOf(ctx).id, String(ctx.params.id ?? ''));
    if (body === undefined) throw errors.jobNotFound();
    ctx.body = body;
  };
  router.get('/v2/extract/:id', api, status);
  router.get('/v1/extract/:id', api, status);

  return router;
}
