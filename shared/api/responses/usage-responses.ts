import { z } from 'zod';

/** ISO start and end of the billing period; Tabhive has none, so both are null. */
const period = { billingPeriodStart: z.string().nullable(), billingPeriodEnd: z.string().nullable() };
const periodV1 = { billing_period_start: z.string().nullable(), billing_period_end: z.string().nullable() };

/** `GET /v2/team/credit-usage` (docs/wire-contract.md §15): `planCredits` is null for a team without an allowance. */
export const CreditUsageV2 = z.object({
  success: z.literal(true),
  data: z.object({ remainingCredits: z.int().min(0), planCredits: z.int().min(0).nullable(), ...period }),
});
export type CreditUsageV2 = z.infer<typeof CreditUsageV2>;

/** `GET /v1/team/credit-usage` (docs/wire-contract.md §11.6). */
export const CreditUsageV1 = z.object({
  success: z.literal(true),
  data: z.object({ remaining_credits: z.int().min(0), plan_credits: z.int().min(0).nullable(), ...periodV1 }),
});
export type CreditUsageV1 = z.infer<typeof CreditUsageV1>;

/** `GET /v2/team/token-usage`. */
export const TokenUsageV2 = z.object({
  success: z.literal(true),
  data: z.object({ remainingTokens: z.int().min(0), planTokens: z.int().min(0).nullable(), ...period }),
});
export type TokenUsageV2 = z.infer<typeof TokenUsageV2>;

/** `GET /v1/team/token-usage`. */
export const TokenUsageV1 = z.object({
  success: z.literal(true),
  data: z.object({ remaining_tokens: z.int().min(0), plan_tokens: z.int().min(0).nullable(), ...periodV1 }),
});
export type TokenUsageV1 = z.infer<typeof TokenUsageV1>;

/** `GET /v2/concurrency-check` and `/v1/concurrency-check`: the team's work running now and its limit. */
export const ConcurrencyCheck = z.object({
  success: z.literal(true),
  concurrency: z.int().min(0),
  maxConcurrency: z.int().min(1),
});
export type ConcurrencyCheck = z.infer<typeof ConcurrencyCheck>;

/** One month of usage: ISO start and end of the month (UTC), and the key with `byApiKey`. */
const UsagePeriodFields = {
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
  apiKey: z.string().optional(),
};

/** `GET /v{1,2}/team/credit-usage/historical[?byApiKey=true]`: credits by month, oldest first. */
export const CreditUsageHistorical = z.object({
  success: z.literal(true),
  periods: z.array(z.object({ ...UsagePeriodFields, creditsUsed: z.int().min(0) })),
});
export type CreditUsageHistorical = z.infer<typeof CreditUsageHistorical>;

/** `GET /v{1,2}/team/token-usage/historical[?byApiKey=true]`: model tokens by month, oldest first. */
export const TokenUsageHistorical = z.object({
  success: z.literal(true),
  periods: z.array(z.object({ ...UsagePeriodFields, tokensUsed: z.int().min(0) })),
});
export type TokenUsageHistorical = z.infer<typeof TokenUsageHistorical>;

/** `?byApiKey=true` of the historical usage routes; any value but `true` and `false` is a 400. */
export const UsageHistoryQuery = z.object({
  byApiKey: z.enum(['true', 'false']).optional(),
});

/** `GET /v{1,2}/team/queue-status`: the team's queue of pages and its limit. */
export const QueueStatus = z.object({
  success: z.literal(true),
  jobsInQueue: z.int().min(0),
  activeJobsInQueue: z.int().min(0),
  waitingJobsInQueue: z.int().min(0),
  maxConcurrency: z.int().min(1),
  mostRecentSuccess: z.string().nullable(),
});
export type QueueStatus = z.infer<typeof QueueStatus>;
