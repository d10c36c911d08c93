import type { Middleware } from 'koa';
import type { TeamLimits } from '../../platform/teams';
import { teamOf } from './authenticate';

/**
 * The team's per-minute request limit, behind authenticate(). Only requests that start work
 * (POST) count: SDK waiters poll job status every few seconds, and a crawl must not run out of
 * requests while its owner watches it.
 */
export function limitRate({ limits }: { limits: TeamLimits }): Middleware {
  return async (ctx, next) => {
    if (ctx.method === 'POST') await limits.countRequest(teamOf(ctx).id);
    return next();
  };
}
