import { z } from 'zod';

/** `POST /v2/crawl/params-preview` (docs/wire-contract.md §6.3): the URL and the options the prompt asked for. */
export const CrawlParamsPreviewResponse = z.object({
  success: z.literal(true),
  data: z.looseObject({ url: z.string() }),
  /** Set when the prompt was read by the built-in rules after the model failed, or options were dropped. */
  warning: z.string().optional(),
});
