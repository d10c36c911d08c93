import { z } from 'zod';

/** ISO start and end of the billing period; Tabhive has none, so both are null. */
const period = { billingPeriodStart: z.string().nullable(), billingPeriodEnd: z.string().nullable() };
const periodV1 = { billing_period_start: z.string().nullable(), billing_period_end: z.string().nullable() };

/** `GET /v2/team/credit-usage` (contract §15): `planCredits` is null for a team without an allowance. */
export const CreditUsageV2 = z.object({
  success: z.literal(true),
  data: z.object({ remainingCredits: z.int().min(0), planCredits: z.int().min(0).nullable(), ...period }),
});
export type CreditUsageV2 = z.infer<typeof CreditUsageV2>;

/** `GET /v1/team/credit-usage` (contract §11.6). */
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
