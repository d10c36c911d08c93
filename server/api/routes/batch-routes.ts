import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { BatchScrapeRequestV1 } from '../../../shared/api/v1/batch-scrape-request';
import { BatchScrapeRequestV2 } from '../../../shared/api/v2/batch-scrape-request';
import { UrlInput } from '../../../shared/api/url-input';
import { toIssueDetails } from '../../../shared/api/zod-issues';
import type { WebhookV2 } from '../../../shared/api/v2/crawl-webhook';
import type { ScrapeOptionsV2 } from '../../../shared/api/v2/scrape-options';
import { teamOf, type PublicUrl } from '../http';
import { errors } from '../../platform/errors';
import { parseBody } from '../../platform/input';
import { type JobService, optional, type JobSpec } from '../../products/jobs';
import { jobReadRoutes } from './job-read-routes';

interface BatchInput {
  urls: string[];
  ignoreInvalidURLs: boolean;
  maxConcurrency?: number | undefined;
  webhook?: WebhookV2 | undefined;
  zeroDataRetention?: boolean | undefined;
  appendToId?: string | undefined;
  scrapeOptions: ScrapeOptionsV2;
  jsonKey?: 'json' | 'extract';
}

/**
 * Checks every URL: with `ignoreInvalidURLs` the bad ones are left out and reported as the client
 * sent them; without, one bad URL is a 400 for the whole request (docs/wire-contract.md §5.1).
 */
function splitUrls(urls: readonly string[], ignoreInvalid: boolean) {
  const valid: string[] = [];
  const invalid: string[] = [];
  for (const [index, raw] of urls.entries()) {
    const parsed = UrlInput.safeParse(raw);
    if (parsed.success) valid.push(parsed.data.url);
    else if (ignoreInvalid) invalid.push(raw);
    else
      throw errors.badRequest(
        toIssueDetails(parsed.error).map((issue) => ({ ...issue, path: ['urls', index, ...issue.path] })),
      );
  }
  return { valid, invalid };
}

/** Batch scrapes, v1 and v2 (docs/wire-contract.md §5, §7, §11.2). */
export function batchRoutes({
  jobs,
  api,
  publicUrl,
}: {
  jobs: JobService;
  api: Middleware;
  publicUrl: PublicUrl;
}): Router {
  const router = new Router();

  const start = async (ctx: Context, version: 'v1' | 'v2', input: BatchInput) => {
    const { valid, invalid } = splitUrls(input.urls, input.ignoreInvalidURLs);
    const spec: JobSpec = {
      version,
      scrapeOptions: input.scrapeOptions,
      zeroDataRetention: input.zeroDataRetention ?? false,
      ...optional({ maxConcurrency: input.maxConcurrency, webhook: input.webhook }),
      ...(input.jsonKey === 'extract' ? { jsonKey: 'extract' as const } : {}),
      options: {},
    };
    const teamId = teamOf(ctx).id;
    const id =
      input.appendToId === undefined
        ? await jobs.startBatch(teamId, spec, valid, ctx.get('x-idempotency-key') || undefined)
        : await jobs.appendToBatch(teamId, input.appendToId, valid);
    if (id === undefined) throw errors.jobNotFound();
    ctx.body = {
      success: true,
      id,
      url: publicUrl(ctx, `/${version}/batch/scrape/${id}`),
      // v2 always reports them; v1 only when the caller asked to ignore invalid URLs.
      ...(version === 'v2' || input.ignoreInvalidURLs ? { invalidURLs: invalid } : {}),
    };
  };

  router.post('/v2/batch/scrape', api, async (ctx) => {
    const {
      urls,
      ignoreInvalidURLs,
      maxConcurrency,
      webhook,
      zeroDataRetention,
      appendToId,
      origin: _origin,
      integration: _integration,
      ...scrapeOptions
    } = parseBody(BatchScrapeRequestV2, ctx.request.body);
    await start(ctx, 'v2', {
      urls,
      ignoreInvalidURLs,
      maxConcurrency,
      webhook,
      zeroDataRetention,
      appendToId,
      scrapeOptions,
    });
  });

  router.post('/v1/batch/scrape', api, async (ctx) => {
    await start(ctx, 'v1', parseBody(BatchScrapeRequestV1, ctx.request.body));
  });

  jobReadRoutes(router, '/v1/batch/scrape', { jobs, api, publicUrl });
  jobReadRoutes(router, '/v2/batch/scrape', { jobs, api, publicUrl });
  return router;
}
