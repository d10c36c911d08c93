import type { CrawlRequestV1 } from '../../../shared/api/v1/crawl-request';
import type { CrawlRequestV2 } from '../../../shared/api/v2/crawl-request';
import type { WebhookV2 } from '../../../shared/api/v2/crawl-webhook';
import { servesFromCacheOnly } from '../../../shared/api/v2/cache-only';
import type { ScrapeOptionsV2 } from '../../../shared/api/v2/scrape-options';
import type { CrawlRules } from './crawl-rules';

/** v2 has no path-depth limit (Firecrawl uses 9999). */
const UNLIMITED_PATH_DEPTH = 9999;

export interface CrawlSpec {
  startUrl: string;
  rules: CrawlRules;
  limit: number;
  sitemap: 'include' | 'skip' | 'only';
  ignoreRobotsTxt: boolean;
}

/**
 * What a crawl or batch job runs, stored with the job so that any instance can carry it on: the
 * scrape options every page gets, and for crawls the link rules.
 */
export interface JobSpec {
  version: 'v1' | 'v2';
  scrapeOptions: ScrapeOptionsV2;
  zeroDataRetention: boolean;
  maxConcurrency?: number;
  /** Seconds between page starts; forces one page at a time. */
  delay?: number;
  webhook?: WebhookV2;
  /** v1 jobs with the `extract` format: pages carry the extracted data in `extract`, not `json`. */
  jsonKey?: 'extract';
  crawl?: CrawlSpec;
  /** The options `GET /crawl/ongoing` shows, in the request's version's names. */
  options: Record<string, unknown>;
}

/** The fields v1 and v2 crawl requests share, with the same meaning. */
type CrawlRequestFields = Pick<
  CrawlRequestV2 & CrawlRequestV1,
  | 'url'
  | 'includePaths'
  | 'excludePaths'
  | 'regexOnFullURL'
  | 'maxDiscoveryDepth'
  | 'allowExternalLinks'
  | 'allowSubdomains'
  | 'ignoreQueryParameters'
  | 'deduplicateSimilarURLs'
  | 'limit'
  | 'ignoreRobotsTxt'
  | 'maxConcurrency'
  | 'delay'
  | 'webhook'
  | 'zeroDataRetention'
> & { scrapeOptions: ScrapeOptionsV2; robotsUserAgent?: string | null | undefined };

/** A crawl's spec from either version's request; `differences` holds what the versions name differently. */
function crawlSpec(
  request: CrawlRequestFields,
  differences: {
    version: JobSpec['version'];
    maxPathDepth: number;
    crawlEntireDomain: boolean;
    sitemap: CrawlSpec['sitemap'];
    /** The version-specific options `GET /crawl/ongoing` shows. */
    options: Record<string, unknown>;
  },
): JobSpec {
  const { version, maxPathDepth, crawlEntireDomain } = differences;
  // A cache-only crawl (lockdown, minAge) must not reach the site: no robots.txt, no sitemap. Its
  // links come from the cached pages.
  const cacheOnly = servesFromCacheOnly(request.scrapeOptions);
  const sitemap = cacheOnly ? 'skip' : differences.sitemap;
  const ignoreRobotsTxt = cacheOnly || request.ignoreRobotsTxt;
  const robotsUserAgent = request.robotsUserAgent ?? undefined;
  return {
    version,
    scrapeOptions: request.scrapeOptions,
    zeroDataRetention: request.zeroDataRetention ?? false,
    ...optional({ maxConcurrency: request.maxConcurrency, delay: request.delay, webhook: request.webhook }),
    crawl: {
      startUrl: request.url.url,
      rules: {
        includePaths: request.includePaths,
        excludePaths: request.excludePaths,
        regexOnFullURL: request.regexOnFullURL,
        maxDiscoveryDepth: request.maxDiscoveryDepth,
        maxPathDepth,
        crawlEntireDomain,
        allowExternalLinks: request.allowExternalLinks,
        allowSubdomains: request.allowSubdomains,
        ignoreQueryParameters: request.ignoreQueryParameters,
        deduplicateSimilarURLs: request.deduplicateSimilarURLs,
        ...optional({ robotsUserAgent }),
      },
      limit: request.limit,
      sitemap,
      ignoreRobotsTxt,
    },
    options: {
      includePaths: request.includePaths,
      excludePaths: request.excludePaths,
      limit: request.limit,
      crawlEntireDomain,
      allowExternalLinks: request.allowExternalLinks,
      allowSubdomains: request.allowSubdomains,
      ignoreRobotsTxt,
      deduplicateSimilarURLs: request.deduplicateSimilarURLs,
      ignoreQueryParameters: request.ignoreQueryParameters,
      regexOnFullURL: request.regexOnFullURL,
      ...differences.options,
      ...(cacheOnly ? { sitemap } : {}),
      ...optional({ maxDiscoveryDepth: request.maxDiscoveryDepth, delay: request.delay, robotsUserAgent }),
      scrapeOptions: request.scrapeOptions,
    },
  };
}

export function crawlSpecFromV2(request: CrawlRequestV2): JobSpec {
  return crawlSpec(request, {
    version: 'v2',
    maxPathDepth: UNLIMITED_PATH_DEPTH,
    crawlEntireDomain: request.crawlEntireDomain ?? false,
    sitemap: request.sitemap,
    options: { sitemap: request.sitemap },
  });
}

export function crawlSpecFromV1(request: CrawlRequestV1): JobSpec {
  const spec = crawlSpec(request, {
    version: 'v1',
    maxPathDepth: request.maxDepth,
    // `crawlEntireDomain`, when sent, wins over the deprecated `allowBackwardLinks` (docs/wire-contract.md §11.3).
    crawlEntireDomain: request.crawlEntireDomain ?? request.allowBackwardLinks,
    sitemap: request.ignoreSitemap ? 'skip' : 'include',
    options: {
      maxDepth: request.maxDepth,
      allowBackwardLinks: request.allowBackwardLinks,
      ignoreSitemap: request.ignoreSitemap,
    },
  });
  return request.jsonKey === 'extract' ? { ...spec, jsonKey: 'extract' } : spec;
}

/** Drops undefined values, so that stored specs and answers omit what was not given. */
export function optional<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}
