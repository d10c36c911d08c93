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
  // Everything that is not a job field is a scrape option, mapped to v2 as /v1/scrape maps it.
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
    ) => {
      const { options: scrapeOptions, jsonKey } = v1ToV2Options(options, ctx);
      return {
        urls,
        webhook,
        appendToId,
        ignoreInvalidURLs,
        maxConcurrency,
        origin,
        integration,
        zeroDataRetention,
        scrapeOptions,
        jsonKey,
      };
    },
  );
export type BatchScrapeRequestV1 = z.infer<typeof BatchScrapeRequestV1>;
