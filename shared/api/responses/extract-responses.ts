import { z } from 'zod';
import { JsonValue } from '../json-value';

/** `POST /v{1,2}/extract`: the job's id. `urlTrace` is always empty, as Firecrawl sends it. */
export const ExtractStarted = z.object({
  success: z.literal(true),
  id: z.string(),
  urlTrace: z.array(z.string()),
});

/** `GET /v{1,2}/extract/:id`: the job's state and, once completed, what it extracted. */
export const ExtractStatus = z.object({
  success: z.literal(true),
  status: z.enum(['processing', 'completed', 'failed', 'cancelled']),
  /** The extracted data once completed; null before, and when the job failed. */
  data: JsonValue,
  expiresAt: z.string(),
  /** Credits booked so far (pages, site maps, web search); final once the job ended. */
  creditsUsed: z.int().min(0),
  /** With `showSources`: each value's path in `data` (`products[0].name`) → the pages that state it. */
  sources: z.record(z.string(), z.array(z.string())).optional(),
  warning: z.string().optional(),
  /** Why the job failed. */
  error: z.string().optional(),
});
export type ExtractStatus = z.infer<typeof ExtractStatus>;
