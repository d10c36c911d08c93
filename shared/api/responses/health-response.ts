import { z } from 'zod';

/** `GET /health` (architecture.md, operating contract). */
export const HealthResponse = z.object({
  ok: z.boolean(),
  browsers: z.int().min(0),
  store: z.enum(['mongodb', 'embedded']),
});
