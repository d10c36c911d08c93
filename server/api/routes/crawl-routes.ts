import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { CrawlRequestV1 } from '../../../shared/api/v1/crawl-request';
import { CrawlParamsPreviewRequest } from '../../../shared/api/v2/crawl-params-preview-request';
import {
  PromptNotUnderstoodError,
  type CrawlPromptReader,
  parseCrawlRequestV2,
} from '../../products/crawl-prompt';
import { teamOf, type PublicUrl } from '../http';
import { errors } from '../../platform/errors';
import { parseBody } from '../../platform/input';
import { type JobService, startPathWarning, crawlSpecFromV1, crawlSpecFromV2 } from '../../products/jobs';
import { jobReadRoutes } from './job-read-routes';

const idempotencyKey = (ctx: Context) => ctx.get('x-idempotency-key') || undefined;

/** Crawls, v1 and v2, and the v2 prompt preview (docs/wire-contract.md §6, §7, §11.3). */
export function crawlRoutes({
  jobs,
  api,
  readCrawlPrompt,
  publicUrl,
}: {
  jobs: JobService;
  api: Middleware;
  readCrawlPrompt: CrawlPromptReader;
  publicUrl: PublicUrl;
}): Router {
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
    const { request, reading } = await parseCrawlRequestV2(ctx.request.body, readCrawlPrompt);
    const spec = crawlSpecFromV2(request);
    const id = await jobs.startCrawl(teamOf(ctx).id, spec, idempotencyKey(ctx));
    const { scrapeOptions: _scrapeOptions, ...finalCrawlerOptions } = spec.options;
    const warning = [reading?.warning, spec.crawl && startPathWarning(spec.crawl)]
      .filter((text) => text !== undefined)
      .join(' ');
    ctx.body = {
      success: true,
      id,
      url: publicUrl(ctx, `/v2/crawl/${id}`),
      ...(reading === undefined ? {} : { promptGeneratedOptions: reading.options, finalCrawlerOptions }),
      ...(warning === '' ? {} : { warning }),
    };
  });

  router.post('/v2/crawl/params-preview', api, async (ctx) => {
    const parsed = CrawlParamsPreviewRequest.safeParse(ctx.request.body);
    if (!parsed.success) {
      throw errors.invalidPreviewParameters(parsed.error.issues.map((issue) => issue.message).join(', '));
    }
    const { url, prompt } = parsed.data;
    const reading = await readCrawlPrompt({ url, prompt }).catch((err: unknown) => {
      throw err instanceof PromptNotUnderstoodError ? errors.promptNotUnderstood(false) : err;
    });
    ctx.body = {
      success: true,
      data: { url, ...reading.options },
      ...(reading.warning === undefined ? {} : { warning: reading.warning }),
    };
  });

  router.post('/v1/crawl', api, async (ctx) => {
    const spec = crawlSpecFromV1(parseBody(CrawlRequestV1, ctx.request.body));
    const id = await jobs.startCrawl(teamOf(ctx).id, spec, idempotencyKey(ctx));
    const warning = spec.crawl && startPathWarning(spec.crawl);
    ctx.body = { success: true, id, url: publicUrl(ctx, `/v1/crawl/${id}`), ...(warning && { warning }) };
  });

  jobReadRoutes(router, '/v1/crawl', { jobs, api, publicUrl });
  jobReadRoutes(router, '/v2/crawl', { jobs, api, publicUrl });
  return router;
}
