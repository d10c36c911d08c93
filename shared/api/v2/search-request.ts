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
/**
 * Firecrawl's hosted catalogue of data providers ("alexandria", formerly "exchange"), which newer
 * clients may ask for (firecrawl-mcp adds it to every search without sources): accepted, dropped,
 * and said so in `warning` (searchOptionWarnings).
 */
const CATALOGUE_SOURCES = ['alexandria', 'exchange'] as const;
const CatalogueName = z.enum(CATALOGUE_SOURCES);
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
  z.strictObject({ type: CatalogueName }),
]);

/** Names or objects, not mixed (docs/wire-contract.md §13.1); parsed to the distinct names. */
const Sources = z
  .union([z.array(z.union([SourceName, CatalogueName])), z.array(SourceObject)])
  .transform((sources) => {
    const names = [
      ...new Set(
        sources
          .map((source) => (typeof source === 'string' ? source : source.type))
          .filter((name) => !(CATALOGUE_SOURCES as readonly string[]).includes(name)),
      ),
    ] as Array<(typeof SEARCH_SOURCES)[number]>;
    // Only the catalogue asked for: the web is what Tabhive can search instead.
    return names.length === 0 && sources.length > 0 ? ['web' as const] : names;
  })
  .default(() => ['web' as const]);

const Categories = z
  .union([z.array(CategoryName), z.array(z.strictObject({ type: CategoryName }))])
  .transform((categories) => [
    ...new Set(categories.map((category) => (typeof category === 'string' ? category : category.type))),
  ])
  .default(() => []);

/** Search scrapes nothing unless formats are given, and change tracking is not offered (docs/wire-contract.md §13.1). */
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

/** `timeout` of a search when none is given (docs/wire-contract.md §13.1). */
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
 * Body of `POST /v2/search` (docs/wire-contract.md §13.1). Strict, with Firecrawl's v1 wording for unknown keys.
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
    // Options of Firecrawl's hosted search that newer clients send (the SDK's search options,
    // firecrawl-mcp): accepted so those clients work; what they ask for is not done here, and
    // searchOptionWarnings says so.
    toolDetail: z.enum(['compact', 'summary', 'full']).optional(),
    domainTools: z.boolean().optional(),
    highlights: z.boolean().optional(),
    enterprise: z.array(z.enum(['default', 'anon', 'zdr'])).optional(),
  },
  'v1',
);
export type SearchRequestV2 = z.infer<typeof SearchRequestV2>;

const isCatalogue = (source: unknown) =>
  (CATALOGUE_SOURCES as readonly unknown[]).includes(
    typeof source === 'object' && source !== null ? (source as { type?: unknown }).type : source,
  );

/** What a v2 search body asked for that Tabhive does not do, as the response's `warning` sentences. */
export function searchOptionWarnings(body: unknown): string[] {
  if (typeof body !== 'object' || body === null) return [];
  const { sources, domainTools, enterprise } = body as Record<string, unknown>;
  const warnings: string[] = [];
  if (Array.isArray(sources) && sources.some(isCatalogue)) {
    warnings.push(
      sources.every(isCatalogue)
        ? 'Tabhive has no catalogue of data providers (sources "alexandria"): the web was searched instead.'
        : 'Tabhive has no catalogue of data providers (sources "alexandria"): that source was left out.',
    );
  }
  if (domainTools === true) warnings.push('domainTools is not served by Tabhive: no tools are returned.');
  if (Array.isArray(enterprise) && enterprise.some((option) => option !== 'default')) {
    warnings.push(
      'enterprise search options (anon, zdr) are not served by Tabhive: this was an ordinary search.',
    );
  }
  return warnings;
}
