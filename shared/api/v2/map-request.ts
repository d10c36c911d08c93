import { z } from 'zod';
import { commonFields } from '../common-fields';
import { CrawlDelay } from '../crawl-delay';
import { RequestTimeout } from '../request-timeout';
import { strictBody } from '../strict-body';
import { UrlInput } from '../url-input';
import { PathPatterns } from './crawl-request';
import { scrapeOptionsV2Shape } from './scrape-options';

export const DEFAULT_MAP_LIMIT = 5000;
/** The most URLs one map may return. */
export const MAX_MAP_LIMIT = 100_000;
export const MAX_MAP_SEARCH_LENGTH = 1000;

/**
 * The fields `POST /v2/map` and `POST /v1/map` share: what to map and how to filter the answer, and
 * the crawler fields Firecrawl accepts there. `includePaths`, `excludePaths`, `regexOnFullURL` and
 * `ignoreRobotsTxt` filter the answer; the other crawler fields have no meaning for a map.
 * `useMock` names a fixture of Firecrawl's own test harness and is ignored.
 */
export const mapFieldsShape = {
  url: UrlInput,
  search: z.string().max(MAX_MAP_SEARCH_LENGTH).optional(),
  includeSubdomains: z.boolean().default(true),
  ignoreQueryParameters: z.boolean().default(true),
  limit: z.int().min(1).max(MAX_MAP_LIMIT).default(DEFAULT_MAP_LIMIT),
  timeout: RequestTimeout.optional(),
  filterByPath: z.boolean().default(true),
  useIndex: z.boolean().default(true),
  useMock: z.string().optional(),
  includePaths: PathPatterns,
  excludePaths: PathPatterns,
  regexOnFullURL: z.boolean().default(false),
  ignoreRobotsTxt: z.boolean().default(false),
  maxDiscoveryDepth: z.int().min(0).optional(),
  crawlEntireDomain: z.boolean().optional(),
  allowExternalLinks: z.boolean().optional(),
  allowSubdomains: z.boolean().optional(),
  deduplicateSimilarURLs: z.boolean().optional(),
  delay: CrawlDelay.optional(),
};

/** Body of `POST /v2/map` (docs/wire-contract.md §12.1). Strict. */
export const MapRequestV2 = strictBody(
  {
    origin: commonFields.origin,
    integration: commonFields.integration,
    ...mapFieldsShape,
    sitemap: z.enum(['include', 'skip', 'only']).default('include'),
    location: scrapeOptionsV2Shape.location,
  },
  'v2',
);
export type MapRequestV2 = z.infer<typeof MapRequestV2>;
