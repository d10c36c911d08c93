import { z } from 'zod';
import { commonFields } from '../common-fields';
import { strictBody } from '../strict-body';
import { WebhookV2 } from '../v2/crawl-webhook';
import { refineScrapeOptionsV2 } from '../v2/scrape-options';
import { crawlScrapeOptionsV1Shape } from './crawl-scrape-options';
import { refineScrapeOptionsV1 } from './scrape-options';
import { v1ToV2Options } from './v1-to-v2-options';

/** Body of `POST /v1/batch/scrape` (contract §11.2): v1 options at the top level, `ignoreInvalidURLs` off by default. */
export const BatchScrapeRequestV1 = strictBody(
  {
    ...crawlScrapeOptionsV1Shape,
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
  .superRefine(refineScrapeOptionsV1)
  .transform(
    (
      {
        urls,
        webhook,
        appendToId,
        ignoreInvalidURLs,
        maxConcurrency,
        origin,
        integration,
        zeroDataRetention,
        ...options
      },
      ctx,
    ) => ({
      urls,
      webhook,
      appendToId,
      ignoreInvalidURLs,
      maxConcurrency,
      origin,
      integration,
      zeroDataRetention,
      ...(({ options: scrapeOptions, jsonKey }) => ({ scrapeOptions, jsonKey }))(v1ToV2Options(options, ctx)),
    }),
  );
export type BatchScrapeRequestV1 = z.infer<typeof BatchScrapeRequestV1>;
