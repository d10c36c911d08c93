import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { ReplayService } from '../../products/browser-sessions';
import { teamOf } from '../http';

/**
 * A browser session's replay (docs/browser-sessions.md#replay), under `/v2/browser` and
 * Firecrawl's newer `/v2/interact`: the recorded pages, then one page's rrweb events. Another
 * team's session is not found. `api` authenticates; see app.ts.
 */
export function replayRoutes({ replays, api }: { replays: ReplayService; api: Middleware }): Router {
  const router = new Router();
  for (const prefix of ['browser', 'interact'] as const) {
    router.get(`/v2/${prefix}/:id/replay`, api, async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await replays.pages(teamOf(ctx).id, ctx.params.id ?? '', prefix);
    });
    router.get(`/v2/${prefix}/:id/replay/:pageId`, api, async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await replays.page(teamOf(ctx).id, ctx.params.id ?? '', ctx.params.pageId ?? '');
    });
  }
  return router;
}
