import { z } from 'zod';

/**
 * The parts of Tabhive's answers the command line reads, checked where they enter. Documents are
 * kept whole (loose): the command line passes them on as the API sent them.
 */

/** Firecrawl's error envelope (also the bodies without `success`, such as cancel's). */
export const ApiErrorBody = z.object({
  error: z.string(),
  code: z.string().optional(),
  details: z.unknown().optional(),
});

export const PageDocument = z.looseObject({
  markdown: z.string().optional(),
  warning: z.string().optional(),
  metadata: z
    .looseObject({
      scrapeId: z.string().optional(),
      sourceURL: z.string().optional(),
      url: z.string().optional(),
      title: z.unknown().optional(),
      statusCode: z.number().optional(),
    })
    .optional(),
});
export type PageDocument = z.infer<typeof PageDocument>;

export const ScrapeResponse = z.object({ success: z.literal(true), data: PageDocument });

export const JobStarted = z.looseObject({
  success: z.literal(true),
  id: z.string().min(1),
  invalidURLs: z.array(z.string()).optional(),
  warning: z.string().optional(),
});

export const JobStatusPage = z.looseObject({
  success: z.literal(true),
  status: z.string(),
  total: z.number(),
  completed: z.number(),
  creditsUsed: z.number().optional(),
  /** Why a job failed, when it did. */
  error: z.string().optional(),
  /** Something surprising about the job (e.g. a start URL that could not be reached). */
  warning: z.string().optional(),
  next: z.string().optional(),
  data: z.array(PageDocument),
});
export type JobStatusPage = z.infer<typeof JobStatusPage>;

export const JobErrors = z.looseObject({
  errors: z.array(z.looseObject({ url: z.string().optional(), error: z.string().optional() })),
  robotsBlocked: z.array(z.string()).optional(),
});

export const MapResponse = z.looseObject({
  success: z.literal(true),
  links: z.array(
    z.union([
      z.string().transform((url) => ({ url })),
      z.looseObject({ url: z.string(), title: z.string().optional(), description: z.string().optional() }),
    ]),
  ),
});

const SearchResult = z.looseObject({
  url: z.string().optional(),
  title: z.string().optional(),
  description: z.string().optional(),
  snippet: z.string().optional(),
  markdown: z.string().optional(),
});
export type SearchResult = z.infer<typeof SearchResult>;

export const SearchResponse = z.looseObject({
  success: z.literal(true),
  data: z.looseObject({
    web: z.array(SearchResult).optional(),
    news: z.array(SearchResult).optional(),
    images: z.array(SearchResult).optional(),
  }),
  creditsUsed: z.number().optional(),
});
