import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { CrawlRequestV1 } from '../../shared/api/v1/crawl-request';
import { CrawlRequestV2 } from '../../shared/api/v2/crawl-request';
import { teamOf } from '../http/authenticate';
import { parseBody } from '../http/parse-body';
import type { JobService } from '../jobs/create-job-service';
import { crawlSpecFromV1, crawlSpecFromV2 } from '../jobs/job-spec';
import { jobReadRoutes, publicBase } from './job-read-routes';

const idempotencyKey = (ctx: Context) => ctx.get('x-idempotency-key') || undefined;

/** Crawls, v1 and v2 (contract §6, §7, §11.3). */
export function crawlRoutes({ jobs, api }: { jobs: JobService; api: Middleware }): Router {
  const router = new Router();

  for (const version of ['v1', 'v2'] as const) {
    router.get(`/${version}/crawl/ongoing`, api, async (ctx) => {
      ctx.body = { success: true, crawls: await jobs.ongoing(teamOf(ctx).id) };
    });
    router.get(`/${version}/crawl/active`, api, async (ctx) => {
      ctx.body = { success: true, crawls: await jobs.ongoing(teamOf(ctx).id) };
    });
  }

  router.post('/v2/crawl', api, async (ctx) => {
    // `prompt` needs the parameter generator (a later issue): the explicit options apply as sent.
    const spec = crawlSpecFromV2(parseBody(CrawlRequestV2, ctx.request.body));
    const id = await jobs.startCrawl(teamOf(ctx).id, spec, idempotencyKey(ctx));
    ctx.body = { success: true, id, url: new URL(`/v2/crawl/${id}`, publicBase(ctx)).href };
  });

  router.post('/v1/crawl', api, async (ctx) => {
    const spec = crawlSpecFromV1(parseBody(CrawlRequestV1, ctx.request.body));
    const id = await jobs.startCrawl(teamOf(ctx).id, spec, idempotencyKey(ctx));
    ctx.body = { success: true, id, url: new URL(`/v1/crawl/${id}`, publicBase(ctx)).href };
  });

  jobReadRoutes(router, '/v1/crawl', { jobs, api });
  jobReadRoutes(router, '/v2/crawl', { jobs, api });
  return router;
}
