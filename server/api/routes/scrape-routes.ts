import Router from '@koa/router';
import type { Middleware } from 'koa';
import { ScrapeRequestV2 } from '../../../shared/api/v2/scrape-request';
import { type ContinuedWork, createContinuedWork, teamOf } from '../http';
import { DEFAULT_SCRAPE_TIMEOUT_MS } from '../../scrape';
import { errors } from '../../platform/errors';
import { parseBody } from '../../platform/input';
import type { Scraper } from '../../scrape/types';
import type { ResultStore } from '../../platform/store';

/**
 * `POST /v2/scrape` and `GET /v2/scrape/:id`: validated input in, one call into the domain, the
 * document out. `api` authenticates and reads the body; see app.ts.
 */
export function scrapeRoutes({
  scraper,
  results,
  api,
  continued = createContinuedWork(),
}: {
  scraper: Scraper;
  results: ResultStore;
  api: Middleware;
  /** Documents that outlived their request, which the same request sent again joins. */
  continued?: ContinuedWork;
}): Router {
  const router = new Router();

  router.post('/v2/scrape', api, async (ctx) => {
    const request = parseBody(ScrapeRequestV2, ctx.request.body);
    const teamId = teamOf(ctx).id;
    // A document still being read at the timeout goes on; the client's retry joins it (continued-work.ts).
    const data = await continued.run(teamId, request, request.timeout ?? DEFAULT_SCRAPE_TIMEOUT_MS, () =>
      scraper.scrape(request, { teamId, admission: 'api', continuable: true }),
    );
    ctx.body = {
      success: true,
      data,
      // Firecrawl's website client reads the id at the top level (docs/wire-contract.md §1.3, `origin`).
      ...(request.origin?.includes('website') ? { scrape_id: data.metadata.scrapeId } : {}),
    };
  });

  // The stored document, exactly as the scrape answered it (docs/wire-contract.md §4.2).
  router.get('/v2/scrape/:id', api, async (ctx) => {
    const result = await results.get(ctx.params.id ?? '');
    // Another team's document is not found: whether it exists is that team's business.
    if (result === undefined || result.teamId !== teamOf(ctx).id) throw errors.scrapeNotFound();
    ctx.body = { success: true, data: result.document };
  });

  return router;
}
