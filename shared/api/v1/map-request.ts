import { z } from 'zod';
import { commonFields } from '../common-fields';
import { strictBody } from '../strict-body';
import { UrlInput } from '../url-input';
import { PathPatterns } from '../v2/crawl-request';
import { DEFAULT_MAP_LIMIT, MAX_MAP_LIMIT, MAX_MAP_SEARCH_LENGTH } from '../v2/map-request';

/**
 * Body of `POST /v1/map` (contract §11.4): v1 names (`ignoreSitemap`, `sitemapOnly`) and the v1
 * crawler options, which are accepted; the path patterns, `regexOnFullURL` and `ignoreRobotsTxt`
 * filter the answer as on v2.
 */
export const MapRequestV1 = strictBody(
  {
    ...commonFields,
    url: UrlInput,
    search: z.string().max(MAX_MAP_SEARCH_LENGTH).optional(),
    ignoreSitemap: z.boolean().default(false),
    sitemapOnly: z.boolean().default(false),
    includeSubdomains: z.boolean().default(true),
    ignoreQueryParameters: z.boolean().default(true),
    limit: z.int().min(1).max(MAX_MAP_LIMIT).default(DEFAULT_MAP_LIMIT),
    timeout: z.int().positive().optional(),
    filterByPath: z.boolean().default(true),
    useIndex: z.boolean().default(true),
    useMock: z.string().optional(),
    includePaths: PathPatterns,
    excludePaths: PathPatterns,
    regexOnFullURL: z.boolean().default(false),
    ignoreRobotsTxt: z.boolean().default(false),
    maxDepth: z.int().min(0).optional(),
    maxDiscoveryDepth: z.int().min(0).optional(),
    allowBackwardLinks: z.boolean().optional(),
    crawlEntireDomain: z.boolean().optional(),
    allowExternalLinks: z.boolean().optional(),
    allowSubdomains: z.boolean().optional(),
    deduplicateSimilarURLs: z.boolean().optional(),
    delay: z.number().positive().optional(),
    maxConcurrency: z.int().positive().optional(),
  },
  'v1',
);
export type MapRequestV1 = z.infer<typeof MapRequestV1>;
