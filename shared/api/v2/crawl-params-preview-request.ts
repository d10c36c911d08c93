import { z } from 'zod';

/**
 * Body of `POST /v2/crawl/params-preview` (docs/wire-contract.md §6.3). Not strict: SDKs add `origin`. The URL
 * is checked as it is, without adding a protocol.
 */
export const CrawlParamsPreviewRequest = z.object({
  url: z.url({ protocol: /^https?$/, error: 'url must be an http or https URL' }),
  prompt: z.string().trim().min(1, { error: 'prompt must not be empty' }).max(10_000),
});
export type CrawlParamsPreviewRequest = z.infer<typeof CrawlParamsPreviewRequest>;
