import { z } from 'zod';
import { Document } from './document';

/** `POST /v{1,2}/crawl` and `POST /v{1,2}/batch/scrape` (docs/wire-contract.md §5.1, §6.1). */
export const JobStarted = z.object({
  success: z.literal(true),
  id: z.string(),
  /** Where to poll the job's status. */
  url: z.string(),
  /** Batch only: the URLs left out with `ignoreInvalidURLs`. */
  invalidURLs: z.array(z.string()).optional(),
  /** v2 crawl with a `prompt`: the options read from it, and the crawl options that apply. */
  promptGeneratedOptions: z.record(z.string(), z.unknown()).optional(),
  finalCrawlerOptions: z.record(z.string(), z.unknown()).optional(),
  warning: z.string().optional(),
});

/** `GET /v{1,2}/crawl/:id` and `GET /v{1,2}/batch/scrape/:id` (docs/wire-contract.md §7.3, §7.4). */
export const JobStatus = z.object({
  success: z.literal(true),
  status: z.enum(['scraping', 'completed', 'failed', 'cancelled']),
  total: z.int().min(0),
  completed: z.int().min(0),
  creditsUsed: z.number(),
  expiresAt: z.string(),
  /** The next page of `data`, as an absolute URL; absent on the last page. */
  next: z.string().optional(),
  data: z.array(Document),
  /** Crawls: a start at a page URL (only its path is crawled), or a start URL that failed. */
  warning: z.string().optional(),
});

/** `DELETE /v{1,2}/crawl/:id` and `DELETE /v{1,2}/batch/scrape/:id` (docs/wire-contract.md §7.2). */
export const JobCancelled = z.object({ status: z.literal('cancelled') });

/** `GET …/:id/errors` (docs/wire-contract.md §7.6); without `success`, as in Firecrawl. */
export const JobErrors = z.object({
  errors: z.array(
    z.object({
      id: z.string(),
      timestamp: z.string(),
      url: z.string(),
      code: z.string().optional(),
      error: z.string(),
    }),
  ),
  /** URLs the crawl left out because robots.txt disallows them. */
  robotsBlocked: z.array(z.string()),
});

/** `GET /v{1,2}/crawl/ongoing` and its alias `/active` (docs/wire-contract.md §7.8). */
export const OngoingCrawls = z.object({
  success: z.literal(true),
  crawls: z.array(
    z.object({
      id: z.string(),
      teamId: z.string(),
      url: z.string(),
      created_at: z.string(),
      options: z.looseObject({}),
    }),
  ),
});
