import Router from '@koa/router';
import type { Middleware } from 'koa';
import {
  UsageHistoryQuery,
  type ConcurrencyCheck,
  type CreditUsageHistorical,
  type CreditUsageV1,
  type CreditUsageV2,
  type QueueStatus,
  type TokenUsageHistorical,
  type TokenUsageV1,
  type TokenUsageV2,
} from '../../../shared/api/responses/usage-responses';
import { teamOf } from '../http';
import { parseBody } from '../../platform/input';
import type { UsageReports, TeamLimits } from '../../platform/teams';
import type { TeamStore } from '../../platform/store';

/** What usage endpoints report for a team without an allowance (Firecrawl's self-hosted figure, docs/wire-contract.md §1.2). */
export const UNLIMITED_CREDITS = 99_999_999;

/**
 * The team's balance and concurrency in the shapes the SDKs parse (docs/wire-contract.md §11.6, §15): v2 in
 * camelCase with the optional plan fields, v1 in snake_case. Tabhive bills no LLM tokens, so the
 * token endpoints report the unlimited figure; the tokens its model calls spend are counted, by
 * month, in the token history. With `reports`, also the history of credits and tokens by month
 * (and key) and the queue status, the same on v1 and v2.
 */
export function usageRoutes({
  teams,
  limits,
  reports,
  api,
}: {
  teams: TeamStore;
  limits: TeamLimits;
  reports?: UsageReports | undefined;
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
  if (reports !== undefined) {
    for (const version of ['v2', 'v1']) {
      router.get(`/${version}/team/credit-usage/historical`, api, async (ctx) => {
        const { byApiKey } = parseBody(UsageHistoryQuery, ctx.query);
        const periods = await reports.history(teamOf(ctx).id, 'credits', byApiKey === 'true');
        ctx.body = {
          success: true,
          periods: periods.map(({ used, ...period }) => ({ ...period, creditsUsed: used })),
        } satisfies CreditUsageHistorical;
      });
      router.get(`/${version}/team/token-usage/historical`, api, async (ctx) => {
        const { byApiKey } = parseBody(UsageHistoryQuery, ctx.query);
        const periods = await reports.history(teamOf(ctx).id, 'tokens', byApiKey === 'true');
        ctx.body = {
          success: true,
          periods: periods.map(({ used, ...period }) => ({ ...period, tokensUsed: used })),
        } satisfies TokenUsageHistorical;
      });
      router.get(`/${version}/team/queue-status`, api, async (ctx) => {
        ctx.body = { success: true, ...(await reports.queueStatus(teamOf(ctx).id)) } satisfies QueueStatus;
      });
    }
  }
  return router;
}
