import { z } from 'zod';

/** `GET /health` (docs/architecture.md#operating-contract). */
export const HealthResponse = z.object({
  ok: z.boolean(),
  browsers: z.int().min(0),
  store: z.enum(['mongodb', 'embedded']),
  /** With `ok: false` (503): what is wedged, which only a restart clears. */
  problems: z.array(z.string()).optional(),
});
