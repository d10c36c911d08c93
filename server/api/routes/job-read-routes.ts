import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { JobPageQuery } from '../../../shared/api/job-page-query';
import { teamOf, type PublicUrl } from '../http';
import { errors } from '../../platform/errors';
import { parseBody } from '../../platform/input';
import type { JobService } from '../../products/jobs';

/**
 * Status, cancel and errors of crawl and batch jobs, on `prefix` (`/v2/crawl`, `/v1/batch/scrape`,
 * …). Either kind of id works on either path (JS v1's batch waiter polls `/v1/crawl/:id`); only the
 * path inside `next` follows the request's.
 */
export function jobReadRoutes(
  router: Router,
  prefix: string,
  { jobs, api, publicUrl }: { jobs: JobService; api: Middleware; publicUrl: PublicUrl },
) {
  router.get(`${prefix}/:id`, api, async (ctx) => {
    const page = parseBody(JobPageQuery, ctx.query);
    const status = await jobs.status(teamOf(ctx).id, ctx.params.id ?? '', page);
    if (status === undefined) throw errors.jobNotFound();
    const { nextSkip, ...body } = status;
    ctx.body = {
      success: true,
      ...body,
      ...(nextSkip === undefined ? {} : { next: nextUrl(publicUrl, ctx, prefix, nextSkip, page.limit) }),
    };
  });

  // Firecrawl answers cancel errors without `success` (docs/wire-contract.md §1.6).
  router.delete(`${prefix}/:id`, api, async (ctx) => {
    const result = await jobs.cancel(teamOf(ctx).id, ctx.params.id ?? '');
    if (result === undefined) {
      ctx.status = 404;
      ctx.body = { error: 'Job not found' };
      return;
    }
    ctx.body = { status: result };
  });

  const jobErrors: Middleware = async (ctx) => {
    const result = await jobs.errors(teamOf(ctx).id, ctx.params.id ?? '');
    if (!result.found) throw errors.jobNotFound();
    ctx.body = { errors: result.errors, robotsBlocked: result.robotsBlocked };
  };
  router.get(`${prefix}/:id/errors`, api, jobErrors);
  // The v1 JS client's checkCrawlErrors and checkBatchScrapeErrors send DELETE here (firecrawl
  // 4.42.0): answered as the read it means, so those methods work unchanged. Nothing is deleted.
  if (prefix.startsWith('/v1/')) router.delete(`${prefix}/:id/errors`, api, jobErrors);
}

function nextUrl(
  publicUrl: PublicUrl,
  ctx: Context,
  prefix: string,
  skip: number,
  limit: number | undefined,
): string {
  const url = new URL(publicUrl(ctx, `${prefix}/${encodeURIComponent(ctx.params.id ?? '')}`));
  url.searchParams.set('skip', String(skip));
  if (limit !== undefined) url.searchParams.set('limit', String(limit));
  return url.href;
}
