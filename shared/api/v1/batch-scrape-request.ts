import { z } from 'zod';
import { strictBody } from '../strict-body';
import { batchJobShape } from '../v2/batch-scrape-request';
import { refineScrapeOptionsV2 } from '../v2/scrape-options';
import { crawlScrapeOptionsV1Shape } from './crawl-scrape-options';
import { refineScrapeOptionsV1 } from './scrape-options';
import { v1ToV2Options } from './v1-to-v2-options';

const JOB_FIELDS = Object.keys(batchJobShape) as Array<keyof typeof batchJobShape>;
type JobField = (typeof JOB_FIELDS)[number];

/** Body of `POST /v1/batch/scrape` (docs/wire-contract.md §11.2): v1 options at the top level, `ignoreInvalidURLs` off by default. */
export const BatchScrapeRequestV1 = strictBody(
  {
    ...crawlScrapeOptionsV1Shape,
    ...batchJobShape,
    ignoreInvalidURLs: z.boolean().default(false),
  },
  'v1',
)
  .superRefine(refineScrapeOptionsV2)
  .superRefine(refineScrapeOptionsV1)
  // Everything that is not a job field is a scrape option, mapped to v2 as /v1/scrape maps it.
  .transform((body, ctx) => {
    const job: Partial<Record<JobField, unknown>> = {};
    const options: Record<string, unknown> = { ...body };
    for (const field of JOB_FIELDS) {
      job[field] = body[field];
      delete options[field];
    }
    const { options: scrapeOptions, jsonKey } = v1ToV2Options(options as Omit<typeof body, JobField>, ctx);
    return { ...(job as Pick<typeof body, JobField>), scrapeOptions, jsonKey };
  });
export type BatchScrapeRequestV1 = z.infer<typeof BatchScrapeRequestV1>;
