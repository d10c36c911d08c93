import { z } from 'zod';
import { commonFields } from '../common-fields';
import { strictBody } from '../strict-body';
import { WebhookV2 } from '../v2/crawl-webhook';
import { refineScrapeOptionsV2 } from '../v2/scrape-options';
import { scrapeOptionsV1Shape, v1ToV2Options } from './crawl-scrape-options';

/** Body of `POST /v1/batch/scrape` (contract §11.2): v1 options at the top level, `ignoreInvalidURLs` off by default. */
export const BatchScrapeRequestV1 = strictBody(
  {
    ...scrapeOptionsV1Shape,
    ...commonFields,
    urls: z.array(z.string()),
    webhook: WebhookV2.optional(),
    appendToId: z.uuid().optional(),
    ignoreInvalidURLs: z.boolean().default(false),
    maxConcurrency: z.int().positive().optional(),
  },
  'v1',
)
  .superRefine(refineScrapeOptionsV2)
  .transform(
    ({
      urls,
      webhook,
      appendToId,
      ignoreInvalidURLs,
      maxConcurrency,
      origin,
      integration,
      zeroDataRetention,
      ...options
    }) => ({
      urls,
      webhook,
      appendToId,
      ignoreInvalidURLs,
      maxConcurrency,
      origin,
      integration,
      zeroDataRetention,
      scrapeOptions: v1ToV2Options(options),
    }),
  );
export type BatchScrapeRequestV1 = z.infer<typeof BatchScrapeRequestV1>;
