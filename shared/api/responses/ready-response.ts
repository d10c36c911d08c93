import { z } from 'zod';

/** `GET /ready`: readiness for a load balancer; 200 when ready, 503 with the reasons otherwise. */
export const ReadyResponse = z.object({
  ready: z.boolean(),
  /** Whether the store answered a ping just now. */
  store: z.enum(['ok', 'unreachable']),
  /** Browsers available for browser work. */
  browsers: z.int().min(0),
  /** Why the instance is not ready; absent when it is. */
  reasons: z.array(z.string()).optional(),
});
export type ReadyResponse = z.infer<typeof ReadyResponse>;
