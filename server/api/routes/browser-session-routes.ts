import Router from '@koa/router';
import type { Middleware } from 'koa';
import {
  BrowserCreateRequest,
  BrowserExecuteRequest,
  BrowserListQuery,
} from '../../../shared/api/v2/browser-session';
import type { BrowserSessionService } from '../../products/browser-sessions';
import { teamOf, type PublicUrl } from '../http';
import { parseBody } from '../../platform/input';
import { usageAttribution } from '../../platform/store';

/**
 * Browser sessions (`/v2/browser`, and `/v2/interact` as Firecrawl's newer server names it; the
 * clients' `browser()`, `browserExecute()`, `listBrowsers()`, `deleteBrowser()`) and a scrape's
 * interaction (`/v2/scrape/:id/interact`, `interact()` and `stopInteraction()`). `api`
 * authenticates and reads the body; see app.ts.
 */
export function browserSessionRoutes({
  sessions,
  api,
  publicUrl,
}: {
  sessions: BrowserSessionService;
  api: Middleware;
  publicUrl: PublicUrl;
}): Router {
  const router = new Router();
  const caller = (ctx: Parameters<PublicUrl>[0]) => ({
    apiKey: usageAttribution()?.apiKey,
    publicBase: publicUrl(ctx, ''),
  });

  // Firecrawl's current server answers the same routes under `/v2/interact` too.
  for (const base of ['/v2/browser', '/v2/interact']) {
    router.post(base, api, async (ctx) => {
      const request = parseBody(BrowserCreateRequest, ctx.request.body);
      ctx.body = await sessions.create(teamOf(ctx).id, request, caller(ctx));
    });

    router.get(base, api, async (ctx) => {
      const { status } = parseBody(BrowserListQuery, ctx.query);
      ctx.body = { success: true, sessions: await sessions.list(teamOf(ctx).id, status) };
    });

    router.post(`${base}/:id/execute`, api, async (ctx) => {
      const request = parseBody(BrowserExecuteRequest, ctx.request.body);
      ctx.body = await sessions.execute(teamOf(ctx).id, ctx.params.id ?? '', request);
    });

    router.delete(`${base}/:id`, api, async (ctx) => {
      ctx.body = await sessions.destroy(teamOf(ctx).id, ctx.params.id ?? '');
    });
  }

  router.post('/v2/scrape/:id/interact', api, async (ctx) => {
    const request = parseBody(BrowserExecuteRequest, ctx.request.body);
    ctx.body = await sessions.interact(teamOf(ctx).id, ctx.params.id ?? '', request, caller(ctx));
  });

  router.delete('/v2/scrape/:id/interact', api, async (ctx) => {
    ctx.body = await sessions.stopInteraction(teamOf(ctx).id, ctx.params.id ?? '');
  });

  return router;
}
