import { z } from 'zod';

/** `POST /v1/llmstxt`: the job's id. */
export const LlmsTxtStarted = z.object({ success: z.literal(true), id: z.string() });
export type LlmsTxtStarted = z.infer<typeof LlmsTxtStarted>;

/**
 * `GET /v1/llmstxt/:id`: `processing` while it runs, then `completed` with `data` (llms-full.txt
 * only when the request asked for it), or `failed` with `error`. `warnings` names the pages left out.
 */
export const LlmsTxtStatus = z.object({
  success: z.literal(true),
  status: z.enum(['processing', 'completed', 'failed']),
  data: z.object({ llmstxt: z.string(), llmsfulltxt: z.string().optional() }).optional(),
  error: z.string().optional(),
  expiresAt: z.string(),
  creditsUsed: z.int().min(0),
  warnings: z.array(z.string()).optional(),
});
export type LlmsTxtStatus = z.infer<typeof LlmsTxtStatus>;
