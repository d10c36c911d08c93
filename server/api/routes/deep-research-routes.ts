import Router from '@koa/router';
import type { Middleware } from 'koa';
import { DeepResearchRequestV1 } from '../../../shared/api/v1/deep-research-request';
import { AgentJobId } from '../../../shared/api/v2/agent-request';
import type { AgentService } from '../../products/agent';
import { teamOf } from '../http';
import { errors } from '../../platform/errors';
import { parseBody } from '../../platform/input';

/**
 * `POST /v1/deep-research` (start; the agent loop with a research prompt) and
 * `GET /v1/deep-research/:id` (activities, sources, and the final analysis once completed), as
 * FirecrawlAppV1 and V1FirecrawlApp call them. Another team's job is not found.
 */
export function deepResearchRoutes({ agent, api }: { agent: AgentService; api: Middleware }): Router {
  const router = new Router();

  router.post('/v1/deep-research', api, async (ctx) => {
    const request = parseBody(DeepResearchRequestV1, ctx.request.body);
    const { id } = await agent.startResearch(teamOf(ctx).id, request);
    ctx.body = { success: true, id };
  });

  router.get('/v1/deep-research/:id', api, async (ctx) => {
    const id = AgentJobId.safeParse(ctx.params.id);
    if (!id.success) throw errors.jobNotFound();
    const body = await agent.researchStatus(teamOf(ctx).id, id.data);
    if (body === undefined) throw errors.jobNotFound();
    ctx.body = body;
  });

  return router;
}
