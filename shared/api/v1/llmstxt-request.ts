import { z } from 'zod';
import { strictBody } from '../strict-body';
import { UrlInput } from '../url-input';

/** Most pages one llms.txt reads (Firecrawl's documented range is 1-100). */
export const MAX_LLMSTXT_URLS = 100;

/**
 * `POST /v1/llmstxt` as the clients send it: the site's URL, how many of its pages to read, whether
 * to answer llms-full.txt too, and whether cached pages may serve. The clients add `origin` and an
 * experimental streaming flag, accepted and ignored.
 */
export const LlmsTxtRequest = strictBody(
  {
    url: UrlInput,
    maxUrls: z.int().min(1).max(MAX_LLMSTXT_URLS).default(10),
    showFullText: z.boolean().default(false),
    cache: z.boolean().default(true),
    __experimental_stream: z.boolean().nullable().optional(),
    origin: z.string().max(200).optional(),
    integration: z.string().max(200).nullable().optional(),
  },
  'v1',
);
export type LlmsTxtRequest = z.infer<typeof LlmsTxtRequest>;
