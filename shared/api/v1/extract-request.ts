import { z } from 'zod';
import { strictBody } from '../strict-body';
import { extractFieldsShape, refineExtract, toExtractRequest } from '../v2/extract-request';
import { ScrapeOptionsV1 } from './crawl-scrape-options';
import { v1ToV2Options } from './v1-to-v2-options';

/**
 * Body of `POST /v1/extract`: the v2 fields, the v1 scrape options (mapped to v2, as for v1
 * crawls), and the `__experimental_*` flags older v1 clients send. `__experimental_showSources`
 * is the older name of `showSources`; the other two are accepted and have no effect.
 */
export const ExtractRequestV1 = strictBody(
  {
    ...extractFieldsShape,
    scrapeOptions: ScrapeOptionsV1.transform(v1ToV2Options).optional(),
    __experimental_showSources: z.boolean().optional(),
    __experimental_streamSteps: z.boolean().optional(),
    __experimental_llmUsage: z.boolean().optional(),
  },
  'v1',
)
  .superRefine(refineExtract)
  .transform(
    ({
      scrapeOptions,
      __experimental_showSources: showSources,
      __experimental_streamSteps: _streamSteps,
      __experimental_llmUsage: _llmUsage,
      ...request
    }) =>
      toExtractRequest(
        { ...request, showSources: request.showSources || showSources === true },
        scrapeOptions?.options,
      ),
  );
