import { z } from 'zod';
import { Integration } from '../common-fields';
import { RequestTimeout } from '../request-timeout';
import { strictBody } from '../strict-body';
import { FormatsV2 } from './formats';
import { refineScrapeOptionsV2, scrapeOptionsV2Shape } from './scrape-options';

export const SEARCH_SOURCES = ['web', 'images', 'news'] as const;
export const SEARCH_CATEGORIES = ['github', 'research', 'pdf'] as const;
export type SearchCategory = (typeof SEARCH_CATEGORIES)[number];

const SourceName = z.enum(SEARCH_SOURCES);
const CategoryName = z.enum(SEARCH_CATEGORIES);

/** Per-source settings are accepted as Firecrawl accepts them; like Firecrawl, only the types are used. */
const SourceObject = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('web'),
    tbs: z.string().optional(),
    filter: z.string().optional(),
    lang: z.string().optional(),
    country: z.string().optional(),
    location: z.string().optional(),
  }),
  z.strictObject({ type: z.literal('images') }),
  z.strictObject({ type: z.literal('news') }),
]);

/** Names or objects, not mixed (contract §13.1); parsed to the distinct names. */
const Sources = z
  .union([z.array(SourceName), z.array(SourceObject)])
  .transform((sources) => [
    ...new Set(sources.map((source) => (typeof source === 'string' ? source : source.type))),
  ])
  .default(() => ['web' as const]);

const Categories = z
  .union([z.array(CategoryName), z.array(z.strictObject({ type: CategoryName }))])
  .transform((categories) => [
    ...new Set(categories.map((category) => (typeof category === 'string' ? category : category.type))),
  ])
  .default(() => []);

/** Search scrapes nothing unless formats are given, and change tracking is not offered (contract §13.1). */
const SearchFormats = z
  .preprocess((formats) => formats ?? [], FormatsV2)
  .refine((formats) => !formats.some((format) => format.type === 'changeTracking'), {
    error: 'The changeTracking format is not supported in search',
  });

const ScrapeOptionsForSearch = strictBody(
  { ...scrapeOptionsV2Shape, formats: SearchFormats },
  'v2',
).superRefine(refineScrapeOptionsV2);
export const SearchScrapeOptionsV2 = ScrapeOptionsForSearch.default(() => ScrapeOptionsForSearch.parse({}));

/** `timeout` of a search when none is given (contract §13.1). */
export const DEFAULT_SEARCH_TIMEOUT_MS = 60_000;
export const MAX_SEARCH_LIMIT = 100;

/** The fields v1 and v2 search share. */
export const searchFieldsShape = {
  query: z.string().trim().min(1, { error: 'query must not be empty' }),
  limit: z.int().min(1).max(MAX_SEARCH_LIMIT).default(5),
  tbs: z.string().optional(),
  filter: z.string().optional(),
  lang: z.string().default('en'),
  country: z.string().default('us'),
  location: z.string().optional(),
  timeout: RequestTimeout.default(DEFAULT_SEARCH_TIMEOUT_MS),
  ignoreInvalidURLs: z.boolean().default(false),
  origin: z.string().optional(),
  integration: Integration.optional(),
};

/**
 * Body of `POST /v2/search` (contract §13.1). Strict, with Firecrawl's v1 wording for unknown keys.
 * `includeDomains` / `excludeDomains` (newer SDKs) become `site:` operators.
 */
export const SearchRequestV2 = strictBody(
  {
    ...searchFieldsShape,
    sources: Sources,
    categories: Categories,
    includeDomains: z.array(z.string().min(1)).optional(),
    excludeDomains: z.array(z.string().min(1)).optional(),
    scrapeOptions: SearchScrapeOptionsV2,
    __searchPreviewToken: z.string().optional(),
  },
  'v1',
);
export type SearchRequestV2 = z.infer<typeof SearchRequestV2>;
