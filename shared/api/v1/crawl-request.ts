import { z } from 'zod';
import { commonFields } from '../common-fields';
import { CrawlDelay } from '../crawl-delay';
import { strictBody } from '../strict-body';
import { UrlInput } from '../url-input';
import { WebhookV2 } from '../v2/crawl-webhook';
import { DEFAULT_CRAWL_LIMIT, PathPatterns } from '../v2/crawl-request';
import { ScrapeOptionsV1 } from './crawl-scrape-options';
import { v1ToV2Options } from './v1-to-v2-options';

export const DEFAULT_MAX_DEPTH_V1 = 10;

/** Non-empty path segments of a URL, not counting a final index file (docs/wire-contract.md §8). */
function urlPathDepth(href: string): number {
  const segments = new URL(href).pathname.split('/').filter((segment) => segment !== '');
  if (/^index\.(html?|php)$/i.test(segments.at(-1) ?? '')) segments.pop();
  return segments.length;
}

/** Body of `POST /v1/crawl` (docs/wire-contract.md §11.3). */
export const CrawlRequestV1 = strictBody(
  {
    ...commonFields,
    url: UrlInput,
    includePaths: PathPatterns,
    excludePaths: PathPatterns,
    maxDepth: z.int().min(0).default(DEFAULT_MAX_DEPTH_V1),
    maxDiscoveryDepth: z.int().min(0).optional(),
    limit: z.int().positive().default(DEFAULT_CRAWL_LIMIT),
    allowBackwardLinks: z.boolean().default(false),
    crawlEntireDomain: z.boolean().optional(),
    allowExternalLinks: z.boolean().default(false),
    allowSubdomains: z.boolean().default(false),
    ignoreRobotsTxt: z.boolean().default(false),
    ignoreSitemap: z.boolean().default(false),
    deduplicateSimilarURLs: z.boolean().default(true),
    ignoreQueryParameters: z.boolean().default(false),
    regexOnFullURL: z.boolean().default(false),
    delay: CrawlDelay.optional(),
    maxConcurrency: z.int().positive().optional(),
    scrapeOptions: ScrapeOptionsV1.default(() => ScrapeOptionsV1.parse({})).transform(v1ToV2Options),
    webhook: WebhookV2.optional(),
  },
  'v1',
)
  .superRefine((request, ctx) => {
    // zod runs this refinement even when `url` failed its own check (then it holds no URL); that
    // failure is reported already.
    const href: unknown = (request.url as { url?: unknown } | undefined)?.url;
    if (typeof href !== 'string' || !URL.canParse(href)) return;
    if (urlPathDepth(href) > request.maxDepth) {
      ctx.addIssue({ code: 'custom', message: 'URL depth exceeds the specified maxDepth', path: ['url'] });
    }
  })
  // The pages' scrape options in v2 terms, and where v1 puts extracted data (`extract` or `json`).
  .transform(({ scrapeOptions: { options, jsonKey }, ...request }) => ({
    ...request,
    scrapeOptions: options,
    jsonKey,
  }));
export type CrawlRequestV1 = z.infer<typeof CrawlRequestV1>;
