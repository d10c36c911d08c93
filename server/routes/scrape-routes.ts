import Router from '@koa/router';
import type { Middleware } from 'koa';
import { ScrapeRequestV2 } from '../../shared/api/v2/scrape-request';
import { parseBody } from '../http/parse-body';
import type { Scraper } from '../scrape/create-scraper';

/** `POST /v2/scrape`: validated input in, one call into the scraper, the document out. */
/** `api` authenticates and reads the body; see app.ts. */
export function scrapeRoutes({ scraper, api }: { scraper: Scraper; api: Middleware }): Router {
  const router = new Router();
  router.post('/v2/scrape', api, async (ctx) => {
    const request = parseBody(ScrapeRequestV2, ctx.request.body);
    const data = await scraper.scrape(request);
    ctx.body = {
      success: true,
      data,
      // Firecrawl's website client reads the id at the top level (contract §1.3, `origin`).
      ...(request.origin?.includes('website') ? { scrape_id: data.metadata.scrapeId } : {}),
    };
  });
  return router;
}
