import { z } from 'zod';
import { commonFields } from '../common-fields';
import { strictBody } from '../strict-body';
import { WebhookV2 } from './crawl-webhook';
import { refineScrapeOptionsV2, scrapeOptionsV2Shape } from './scrape-options';

/** The job's own fields of a batch scrape (the rest of the body is scrape options), v1 and v2. */
export const batchJobShape = {
  ...commonFields,
  urls: z.array(z.string()),
  webhook: WebhookV2.optional(),
  appendToId: z.uuid().optional(),
  ignoreInvalidURLs: z.boolean().default(true),
  maxConcurrency: z.int().positive().optional(),
};

/**
 * Body of `POST /v2/batch/scrape` (docs/wire-contract.md §5.1): the scrape options flattened at the top level.
 * `urls` stay strings here; the route validates each one and, with `ignoreInvalidURLs` (v2
 * default true), reports the bad ones in `invalidURLs` instead of failing.
 */
export const BatchScrapeRequestV2 = strictBody(
  {
    ...scrapeOptionsV2Shape,
    ...batchJobShape,
  },
  'v2',
).superRefine(refineScrapeOptionsV2);
export type BatchScrapeRequestV2 = z.infer<typeof BatchScrapeRequestV2>;
