import Router from '@koa/router';
import type { Middleware } from 'koa';
import type {
  ConcurrencyCheck,
  CreditUsageV1,
  CreditUsageV2,
  TokenUsageV1,
  TokenUsageV2,
} from '../../shared/api/responses/usage-responses';
import { teamOf } from '../http/authenticate';
import type { TeamStore } from '../store/stores/team-store';
import type { TeamLimits } from '../teams/team-limits';

/** What usage endpoints report for a team without an allowance (Firecrawl's self-hosted figure, contract §1.2). */
export const UNLIMITED_CREDITS = 99_999_999;

/**
 * The team's balance and concurrency in the shapes the SDKs parse (contract §11.6, §15): v2 in
 * camelCase with the optional plan fields, v1 in snake_case. Tabhive bills no LLM tokens, so the
 * token endpoints report the unlimited figure.
 */
export function usageRoutes({
  teams,
  limits,
  api,
}: {
  teams: TeamStore;
  limits: TeamLimits;
  api: Middleware;
}): Router {
  const router = new Router();

  const balance = async (teamId: string) => {
    const team = await teams.get(teamId);
    if (team === undefined || team.creditAllowance === null)
      return { remaining: UNLIMITED_CREDITS, plan: null };
    return {
      remaining: Math.max(0, team.creditsLeft ?? team.creditAllowance - team.creditsUsed),
      plan: team.creditAllowance,
    };
  };

  router.get('/v2/team/credit-usage', api, async (ctx) => {
    const { remaining, plan } = await balance(teamOf(ctx).id);
    ctx.body = {
      success: true,
      data: {
        remainingCredits: remaining,
        planCredits: plan,
        billingPeriodStart: null,
        billingPeriodEnd: null,
      },
    } satisfies CreditUsageV2;
  });
  router.get('/v1/team/credit-usage', api, async (ctx) => {
    const { remaining, plan } = await balance(teamOf(ctx).id);
    ctx.body = {
      success: true,
      data: {
        remaining_credits: remaining,
        plan_credits: plan,
        billing_period_start: null,
        billing_period_end: null,
      },
    } satisfies CreditUsageV1;
  });
  router.get('/v2/team/token-usage', api, (ctx) => {
    ctx.body = {
      success: true,
      data: {
        remainingTokens: UNLIMITED_CREDITS,
        planTokens: null,
        billingPeriodStart: null,
        billingPeriodEnd: null,
      },
    } satisfies TokenUsageV2;
  });
  router.get('/v1/team/token-usage', api, (ctx) => {
    ctx.body = {
      success: true,
      data: {
        remaining_tokens: UNLIMITED_CREDITS,
        plan_tokens: null,
        billing_period_start: null,
        billing_period_end: null,
      },
    } satisfies TokenUsageV1;
  });
  for (const path of ['/v2/concurrency-check', '/v1/concurrency-check']) {
    router.get(path, api, async (ctx) => {
      ctx.body = { success: true, ...(await limits.concurrency(teamOf(ctx).id)) } satisfies ConcurrencyCheck;
    });
  }
  return router;
}
