import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import {
  CreateMonitorRequest,
  MonitorCheckQuery,
  MonitorListQuery,
  UpdateMonitorRequest,
} from '../../../shared/api/v2/monitor-request';
import { teamOf, type PublicUrl } from '../http';
import { parseBody } from '../../platform/input';
import type { MonitorService } from '../../products/monitors';

const param = (ctx: Context, name: string) => String((ctx.params as Record<string, unknown>)[name] ?? '');

/** The warnings of a create, read or update, beside the monitor and inside it (clients read `data`). */
function withWarnings<T extends object>(monitor: T, warnings: string[]) {
  if (warnings.length === 0) return { success: true, data: monitor };
  const warning = warnings.join(' ');
  return { success: true, data: { ...monitor, warning }, warning };
}

/**
 * Firecrawl's monitor routes (`/v2/monitor`…): scheduled change tracking of scrape, crawl and
 * search targets. Every answer is a 200 with `{ success, data }`; another team's monitor is not found.
 */
export function monitorRoutes({
  monitors,
  api,
  publicUrl,
}: {
  monitors: MonitorService;
  api: Middleware;
  publicUrl: PublicUrl;
}): Router {
  const router = new Router();

  router.post('/v2/monitor', api, async (ctx) => {
    const request = parseBody(CreateMonitorRequest, ctx.request.body);
    const { monitor, warnings } = await monitors.create(teamOf(ctx).id, request);
    ctx.body = withWarnings(monitor, warnings);
  });

  router.get('/v2/monitor', api, async (ctx) => {
    const query = parseBody(MonitorListQuery, ctx.query);
    ctx.body = { success: true, data: await monitors.list(teamOf(ctx).id, query) };
  });

  router.get('/v2/monitor/:id', api, async (ctx) => {
    const { monitor, warnings } = await monitors.get(teamOf(ctx).id, param(ctx, 'id'));
    ctx.body = withWarnings(monitor, warnings);
  });

  router.patch('/v2/monitor/:id', api, async (ctx) => {
    const request = parseBody(UpdateMonitorRequest, ctx.request.body);
    const { monitor, warnings } = await monitors.update(teamOf(ctx).id, param(ctx, 'id'), request);
    ctx.body = withWarnings(monitor, warnings);
  });

  router.delete('/v2/monitor/:id', api, async (ctx) => {
    await monitors.remove(teamOf(ctx).id, param(ctx, 'id'));
    ctx.body = { success: true };
  });

  router.post('/v2/monitor/:id/run', api, async (ctx) => {
    ctx.body = { success: true, data: await monitors.run(teamOf(ctx).id, param(ctx, 'id')) };
  });

  router.get('/v2/monitor/:id/checks', api, async (ctx) => {
    const query = parseBody(MonitorListQuery, ctx.query);
    ctx.body = { success: true, data: await monitors.listChecks(teamOf(ctx).id, param(ctx, 'id'), query) };
  });

  router.get('/v2/monitor/:id/checks/:checkId', api, async (ctx) => {
    const query = parseBody(MonitorCheckQuery, ctx.query);
    const id = param(ctx, 'id');
    const checkId = param(ctx, 'checkId');
    const { check, nextSkip } = await monitors.getCheck(teamOf(ctx).id, id, checkId, query);
    let next: string | null = null;
    if (nextSkip !== undefined) {
      const search = new URLSearchParams({ skip: String(nextSkip), limit: String(query.limit) });
      if (query.status !== undefined) search.set('status', query.status);
      next = publicUrl(
        ctx,
        `/v2/monitor/${encodeURIComponent(id)}/checks/${encodeURIComponent(checkId)}?${search}`,
      );
    }
    ctx.body = { success: true, data: { ...check, next }, next };
  });

  return router;
}
