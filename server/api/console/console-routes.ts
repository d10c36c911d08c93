import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import type { Keyring } from '../../platform/auth';
import { errors } from '../../platform/errors';
import { parseBody } from '../../platform/input';
import type { JobService } from '../../products/jobs';
import type { BrowserHub } from '../../browsers/hub';
import type { TabhiveMetrics } from '../../platform/metrics';
import type { ProxyStat } from '../../platform/proxy-pool';
import { readConsoleAsset } from './console-assets';
import { EVERY_TEAM, type ConsoleFigures } from './console-figures';
import { listBrowsers, readOverview } from './console-instance';
import type { ConsoleJobReader } from './console-job-reader';
import type { ConsoleUsage } from './console-usage';
import { CONSOLE_CSP, renderConsoleNotBuilt, renderConsolePage } from './console-page';
import { consoleScope, mayRead, scopeOf, teamFilter } from './console-scope';

export interface ConsoleDeps {
  jobReader: ConsoleJobReader;
  usage: ConsoleUsage;
  hub: Pick<BrowserHub, 'schedulerSnapshot' | 'engineStats' | 'browserStatuses'> &
    Partial<Pick<BrowserHub, 'browserDetails'>>;
  metrics: Pick<TabhiveMetrics, 'pagesScraped' | 'cacheLookups'>;
  /** The overview's figures over the last hour. */
  figures: ConsoleFigures;
  /** Other instances may share the store (MongoDB). */
  clustered: boolean;
  adminApiKey: string | undefined;
  /** The proxy pool's proxies and their counts (PROXY_POOL); absent without a pool. */
  proxies?: (() => ProxyStat[]) | undefined;
}

const JobListQuery = z.object({
  team: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
const UsageQuery = z.object({
  team: z.string().max(200).optional(),
  days: z.coerce.number().int().min(1).max(90).default(14),
});
const DocumentQuery = z.object({ url: z.string().min(1).max(8_192) });
/** Result documents read per store call while streaming JSONL. */
const JSONL_BATCH = 50;

const pageHeaders = (ctx: Context) => {
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Content-Security-Policy', CONSOLE_CSP);
};

const sourceOf = (document: unknown): string[] => {
  const metadata = (document as { metadata?: Record<string, unknown> } | null)?.metadata ?? {};
  return [metadata['sourceURL'], metadata['url']].filter(
    (value): value is string => typeof value === 'string',
  );
};

/**
 * `/console`: the operator console's page and assets, and the JSON it needs that the API has no
 * route for (jobs of every kind and state, a job's pages, this instance's browsers and figures).
 * Authenticated like the API (Bearer; the admin key sees every team), and a team key reads its
 * own team's records only: another team's job is "not found", as on the API.
 */
export function consoleRoutes({
  keyring,
  jobs,
  console: deps,
}: {
  keyring: Keyring;
  jobs: JobService | undefined;
  console: ConsoleDeps;
}): Router {
  const router = new Router();
  const { jobReader } = deps;

  const servePage = async (ctx: Context) => {
    pageHeaders(ctx);
    ctx.type = 'text/html; charset=utf-8';
    if ((await readConsoleAsset('console.js')) === undefined) {
      ctx.status = 503;
      ctx.body = renderConsoleNotBuilt();
      return;
    }
    ctx.body = renderConsolePage();
  };
  router.get('/console', servePage);
  router.get('/console/', servePage);
  router.get('/console/assets/:name', async (ctx) => {
    const asset = await readConsoleAsset(ctx.params['name'] ?? '');
    if (asset === undefined) throw errors.notFound();
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Cache-Control', 'no-cache');
    ctx.type = asset.type;
    ctx.body = asset.body;
  });

  const api = new Router({ prefix: '/console/api' });
  api.use(consoleScope({ keyring, adminApiKey: deps.adminApiKey }));

  const visibleJob = async (ctx: Context) => {
    const job = await jobReader.get(ctx.params['id'] ?? '');
    if (job === undefined || !mayRead(scopeOf(ctx), job.teamId)) throw errors.jobNotFound();
    return job;
  };

  api.get('/whoami', (ctx) => {
    const scope = scopeOf(ctx);
    ctx.body = {
      success: true,
      data: scope.kind === 'admin' ? { admin: true, team: null } : { admin: false, team: scope.team },
    };
  });

  api.get('/jobs', async (ctx) => {
    const { team, limit } = parseBody(JobListQuery, ctx.query);
    ctx.body = {
      success: true,
      data: await jobReader.list({ teamId: teamFilter(scopeOf(ctx), team), limit }),
    };
  });

  api.get('/jobs/:id', async (ctx) => {
    const job = await visibleJob(ctx);
    ctx.body = {
      success: true,
      data: { job: await jobReader.summary(job), pages: await jobReader.pages(job._id) },
    };
  });

  api.get('/jobs/:id/document', async (ctx) => {
    const job = await visibleJob(ctx);
    const { url } = parseBody(DocumentQuery, ctx.query);
    for (let skip = 0; ; skip += JSONL_BATCH) {
      const batch = await jobReader.documents(job._id, skip, JSONL_BATCH);
      const found = batch.find((document) => sourceOf(document).includes(url));
      if (found !== undefined) {
        ctx.body = { success: true, data: found };
        return;
      }
      if (batch.length < JSONL_BATCH) throw errors.notFound();
    }
  });

  api.get('/jobs/:id/results.jsonl', async (ctx) => {
    const job = await visibleJob(ctx);
    const lines: string[] = [];
    for (let skip = 0; ; skip += JSONL_BATCH) {
      const batch = await jobReader.documents(job._id, skip, JSONL_BATCH);
      for (const document of batch) lines.push(JSON.stringify(document));
      if (batch.length < JSONL_BATCH) break;
    }
    ctx.type = 'application/x-ndjson; charset=utf-8';
    ctx.set('Content-Disposition', `attachment; filename="${job._id}.jsonl"`);
    ctx.body = lines.map((line) => `${line}\n`).join('');
  });

  api.post('/jobs/:id/cancel', async (ctx) => {
    const job = await visibleJob(ctx);
    const result = jobs === undefined ? undefined : await jobs.cancel(job.teamId, job._id);
    if (result === undefined) throw errors.jobNotFound();
    ctx.body = { success: true, status: result };
  });

  api.get('/overview', async (ctx) => {
    const scope = scopeOf(ctx);
    if (scope.kind === 'team') deps.figures.watch(scope.team.id);
    ctx.body = {
      success: true,
      data: await readOverview({
        hub: deps.hub,
        metrics: deps.metrics,
        jobs: jobReader,
        teamId: teamFilter(scope, undefined),
        admin: scope.kind === 'admin',
        clustered: deps.clustered,
      }),
    };
  });

  api.get('/overview/history', (ctx) => {
    const scope = scopeOf(ctx);
    if (scope.kind === 'team') deps.figures.watch(scope.team.id);
    ctx.body = {
      success: true,
      data: deps.figures.history(scope.kind === 'admin' ? EVERY_TEAM : scope.team.id),
    };
  });

  api.get('/browsers', (ctx) => {
    const scope = scopeOf(ctx);
    const all = listBrowsers(deps.hub, scope.kind === 'admin' ? undefined : { teamId: scope.team.id });
    // A team sees its own browsers (donated, its nodes) and the shared pool, not other teams'.
    ctx.body = {
      success: true,
      data: all.filter((browser) => browser.teamId === null || mayRead(scope, browser.teamId)),
    };
  });

  // The operator's proxies (host:port, never credentials): the admin's to see, not a team's.
  api.get('/proxies', (ctx) => {
    ctx.body = { success: true, data: scopeOf(ctx).kind === 'admin' ? (deps.proxies?.() ?? []) : [] };
  });

  api.get('/usage', async (ctx) => {
    const { team, days } = parseBody(UsageQuery, ctx.query);
    ctx.body = { success: true, data: await deps.usage({ teamId: teamFilter(scopeOf(ctx), team), days }) };
  });

  router.use(api.routes(), api.allowedMethods());
  return router;
}
