import Router from '@koa/router';
import type { Middleware } from 'koa';
import { AgentJobId, AgentListQuery, AgentRequestV2 } from '../../../shared/api/v2/agent-request';
import type { AgentService } from '../../products/agent';
import { teamOf, type PublicUrl } from '../http';
import { errors } from '../../platform/errors';
import { parseBody } from '../../platform/input';

/** A run id from the path; anything but a UUID is not found without a store read. */
function runId(value: unknown): string {
  const parsed = AgentJobId.safeParse(value);
  if (!parsed.success) throw errors.jobNotFound();
  return parsed.data;
}

/**
 * `/v2/agent`, as firecrawl-js and firecrawl-py call it: start (`POST`), status (`GET /:id`), the
 * team's runs (`GET`, `?before=<ms>`, 20 a page with an absolute `next`), cancel (`DELETE /:id`),
 * the trace (`GET /:id/trace`), the answer's snapshot and the one-run thread. Another team's run
 * is not found.
 */
export function agentRoutes({
  agent,
  api,
  publicUrl,
}: {
  agent: AgentService;
  api: Middleware;
  publicUrl: PublicUrl;
}): Router {
  const router = new Router();

  router.post('/v2/agent', api, async (ctx) => {
    const request = parseBody(AgentRequestV2, ctx.request.body);
    const { id } = await agent.start(teamOf(ctx).id, request);
    ctx.body = { success: true, id, threadId: id, threadTurn: 1 };
  });

  router.get('/v2/agent', api, async (ctx) => {
    const query = AgentListQuery.safeParse(ctx.query);
    if (!query.success) {
      throw errors.badRequest([
        { code: 'custom', message: 'before must be a Unix time in milliseconds', path: ['before'] },
      ]);
    }
    const { agents, nextBefore } = await agent.list(teamOf(ctx).id, query.data.before);
    ctx.body = {
      success: true,
      agents,
      ...(nextBefore === undefined ? {} : { next: publicUrl(ctx, `/v2/agent?before=${nextBefore}`) }),
    };
  });

  router.get('/v2/agent/threads/:id', api, async (ctx) => {
    const body = await agent.thread(teamOf(ctx).id, runId(ctx.params.id), ctx.query.includeData === 'true');
    if (body === undefined) throw errors.jobNotFound();
    ctx.body = body;
  });

  router.get('/v2/agent/:id', api, async (ctx) => {
    const body = await agent.status(teamOf(ctx).id, runId(ctx.params.id));
    if (body === undefined) throw errors.jobNotFound();
    ctx.body = body;
  });

  router.delete('/v2/agent/:id', api, async (ctx) => {
    if (!(await agent.cancel(teamOf(ctx).id, runId(ctx.params.id)))) throw errors.jobNotFound();
    ctx.body = { success: true, status: 'cancelled' };
  });

  router.get('/v2/agent/:id/trace', api, async (ctx) => {
    const trace = await agent.trace(teamOf(ctx).id, runId(ctx.params.id));
    if (trace === undefined) throw errors.jobNotFound();
    ctx.body = {
      success: true,
      id: trace.job._id,
      events: trace.events,
      creditsUsed: Math.max(0, Math.round(trace.job.creditsUsed)),
      // Tabhive's browsers have no live view to hand out.
      ...(ctx.query.liveView === 'true' ? { activeBrowserSessions: [] } : {}),
    };
  });

  router.get('/v2/agent/:id/snapshots/:snapshotId', api, async (ctx) => {
    const snapshot = await agent.snapshot(
      teamOf(ctx).id,
      runId(ctx.params.id),
      String(ctx.params.snapshotId ?? '').slice(0, 200),
    );
    if (snapshot === undefined) throw errors.jobNotFound();
    ctx.body = { success: true, ...snapshot };
  });

  return router;
}
