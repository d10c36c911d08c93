import { z } from 'zod';
import { commonFields } from '../common-fields';
import { CrawlDelay } from '../crawl-delay';
import { strictBody } from '../strict-body';
import { UrlInput } from '../url-input';
import { WebhookV2 } from './crawl-webhook';
import { ScrapeOptionsV2 } from './scrape-options';

/** Caller patterns: at most this many, each at most this long (reliability-security.md E23). */
export const MAX_PATTERNS = 100;
export const MAX_PATTERN_LENGTH = 512;
export const DEFAULT_CRAWL_LIMIT = 10_000;

export const PathPatterns = z.array(z.string().max(MAX_PATTERN_LENGTH)).max(MAX_PATTERNS).default([]);

/**
 * Body of `POST /v2/crawl` (contract §6.1). Strict. A `prompt` is read into options before this
 * schema applies them (server/crawl-prompt/): they fill in what the body leaves out.
 */
export const CrawlRequestV2 = strictBody(
  {
    ...commonFields,
    url: UrlInput,
    prompt: z.string().max(10_000).optional(),
    includePaths: PathPatterns,
    excludePaths: PathPatterns,
    maxDiscoveryDepth: z.int().min(0).optional(),
    limit: z.int().positive().default(DEFAULT_CRAWL_LIMIT),
    crawlEntireDomain: z.boolean().optional(),
    allowExternalLinks: z.boolean().default(false),
    allowSubdomains: z.boolean().default(false),
    ignoreRobotsTxt: z.boolean().default(false),
    sitemap: z.enum(['include', 'skip', 'only']).default('include'),
    deduplicateSimilarURLs: z.boolean().default(true),
    ignoreQueryParameters: z.boolean().default(false),
    regexOnFullURL: z.boolean().default(false),
    delay: CrawlDelay.optional(),
    maxConcurrency: z.int().positive().optional(),
    scrapeOptions: ScrapeOptionsV2.default(() => ScrapeOptionsV2.parse({})),
    webhook: WebhookV2.optional(),
  },
  'v2',
);
export type CrawlRequestV2 = z.infer<typeof CrawlRequestV2>;
