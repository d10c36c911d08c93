import { z } from 'zod';
import { commonFields } from '../common-fields';
import { CrawlDelay } from '../crawl-delay';
import { strictBody } from '../strict-body';
import { UrlInput } from '../url-input';
import { servesFromCacheOnly } from './cache-only';
import { WebhookV2 } from './crawl-webhook';
import { ScrapeOptionsV2 } from './scrape-options';

/** Caller patterns: at most this many, each at most this long (docs/security.md#hostile-input). */
export const MAX_PATTERNS = 100;
export const MAX_PATTERN_LENGTH = 512;
export const DEFAULT_CRAWL_LIMIT = 10_000;

export const PathPatterns = z.array(z.string().max(MAX_PATTERN_LENGTH)).max(MAX_PATTERNS).default([]);

/**
 * `robotsUserAgent`: the product token robots.txt groups are chosen for (RFC 9309 §2.2.1), such as
 * `MyBot`, optionally with a version (`MyBot/2.1`, which robots.txt ignores). RFC 9309 allows
 * letters, `_` and `-`; digits are let in too, since real files name agents like `360Spider`.
 * `null` is the default (Firecrawl's agent).
 */
export const RobotsUserAgent = z
  .string()
  .trim()
  .max(200)
  .regex(/^[A-Za-z0-9_-]+(?:\/[\x21-\x7e]*)?$/, {
    error: 'robotsUserAgent must be a robots.txt product token such as MyBot (optionally MyBot/1.0)',
  })
  .nullable();

/**
 * Body of `POST /v2/crawl` (docs/wire-contract.md §6.1). Strict. A `prompt` is read into options before this
 * schema applies them (server/products/crawl-prompt/): they fill in what the body leaves out. With
 * `scrapeOptions.lockdown` or `minAge` the crawl never reaches the site: it reads no robots.txt and
 * no sitemap and follows the links of cached pages (server/products/jobs/job-spec.ts).
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
    robotsUserAgent: RobotsUserAgent.optional(),
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
).superRefine((request, ctx) => {
  // A cache-only crawl reads no robots.txt and no sitemap (they would be requests to the site).
  if (servesFromCacheOnly(request.scrapeOptions) && request.sitemap === 'only') {
    ctx.addIssue({
      code: 'custom',
      path: ['sitemap'],
      message:
        'sitemap "only" needs the site\'s sitemap, which a crawl with lockdown or minAge does not fetch: it follows the links of cached pages only',
    });
  }
});
export type CrawlRequestV2 = z.infer<typeof CrawlRequestV2>;
