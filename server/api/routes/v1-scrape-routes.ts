import Router from '@koa/router';
import type { Middleware } from 'koa';
import { ScrapeRequestV1 } from '../../../shared/api/v1/scrape-request';
import { errors, TabhiveError } from '../../platform/errors';
import { teamOf, httpStatusOf } from '../http';
import { parseBody } from '../../platform/input';
import type { Log } from '../../platform/log';
import type { Scraper } from '../../scrape/types';
import { scrapeV1 } from '../../scrape';
import type { ResultStore } from '../../platform/store';

/** v1 gives every internal error a code; v2 leaves some without (docs/wire-contract.md §4.1, §11.1). */
const codeEveryInternalError: Middleware = async (_ctx, next) => {
  try {
    await next();
  } catch (err) {
    if (err instanceof TabhiveError && httpStatusOf(err) >= 500 && err.code === undefined) {
      throw err.withCode('UNKNOWN_ERROR');
    }
    throw err;
  }
};

/** `POST /v1/scrape` and `GET /v1/scrape/:id` on the same pipeline as v2. */
export function v1ScrapeRoutes({
  scraper,
  results,
  log,
  api,
}: {
  scraper: Scraper;
  results: ResultStore;
  log: Log;
  api: Middleware;
}): Router {
  const router = new Router();

  router.post('/v1/scrape', api, codeEveryInternalError, async (ctx) => {
    const v1 = parseBody(ScrapeRequestV1, ctx.request.body);
    const data = await scrapeV1({ scraper, results, log }, v1, teamOf(ctx).id);
    ctx.body = {
      success: true,
      data,
      ...(v1.request.origin?.includes('website') ? { scrape_id: data.metadata.scrapeId } : {}),
    };
  });

  router.get('/v1/scrape/:id', api, async (ctx) => {
    const result = await results.get(ctx.params.id ?? '');
    // Another team's document is not found: whether it exists is that team's business.
    if (result === undefined || result.teamId !== teamOf(ctx).id) throw errors.scrapeNotFound();
    ctx.body = { success: true, data: result.document };
  });

  return router;
}
