import Router from '@koa/router';
import type { Middleware } from 'koa';
import { LlmsTxtRequest } from '../../../shared/api/v1/llmstxt-request';
import { teamOf } from '../http';
import { errors } from '../../platform/errors';
import { parseBody } from '../../platform/input';
import type { LlmsTxtService } from '../../products/llmstxt';

/** `POST /v1/llmstxt` starts a job; `GET /v1/llmstxt/:id` answers its status and, once done, the files. */
export function llmsTxtRoutes({ llmsTxt, api }: { llmsTxt: LlmsTxtService; api: Middleware }): Router {
  const router = new Router();

  router.post('/v1/llmstxt', api, async (ctx) => {
    const request = parseBody(LlmsTxtRequest, ctx.request.body);
    ctx.body = { success: true, ...(await llmsTxt.start(teamOf(ctx).id, request)) };
  });

  router.get('/v1/llmstxt/:id', api, async (ctx) => {
    const status = await llmsTxt.status(teamOf(ctx).id, ctx.params.id ?? '');
    if (status === undefined) throw errors.jobNotFound();
    ctx.body = status;
  });

  return router;
}
