import { z } from 'zod';
import { CrawlDelay } from '../../../shared/api/crawl-delay';

/**
 * The crawl options a prompt may set (docs/wire-contract.md §6.3), in v2 names. `maxDepth` is v1's path depth:
 * a model may answer it and the preview shows it, but a v2 crawl has no such option.
 */
export const PromptCrawlOptions = z.object({
  includePaths: z.array(z.string().max(512)).max(100).optional(),
  excludePaths: z.array(z.string().max(512)).max(100).optional(),
  maxDepth: z.int().min(0).optional(),
  maxDiscoveryDepth: z.int().min(0).optional(),
  crawlEntireDomain: z.boolean().optional(),
  allowExternalLinks: z.boolean().optional(),
  allowSubdomains: z.boolean().optional(),
  sitemap: z.enum(['skip', 'include']).optional(),
  ignoreQueryParameters: z.boolean().optional(),
  deduplicateSimilarURLs: z.boolean().optional(),
  delay: CrawlDelay.optional(),
  limit: z.int().positive().optional(),
});
export type PromptCrawlOptions = z.infer<typeof PromptCrawlOptions>;

export const PROMPT_OPTION_KEYS = Object.keys(PromptCrawlOptions.shape) as Array<keyof PromptCrawlOptions>;
