import type { z } from 'zod';
import { commonFields } from '../common-fields';
import { strictBody } from '../strict-body';
import { UrlInput } from '../url-input';
import { refineScrapeOptionsV2 } from '../v2/scrape-options';
import type { ScrapeRequestV2 } from '../v2/scrape-request';
import { AgentV1, refineScrapeOptionsV1, scrapeOptionsV1Shape } from './scrape-options';
import { v1ToV2Options } from './v1-to-v2-options';

export { CHANGE_TRACKING_MIN_WAIT_MS } from './v1-to-v2-options';

/** A v1 scrape as the pipeline runs it, and what the v1 response does differently. */
export interface ScrapeV1 {
  request: ScrapeRequestV2;
  /** `data.extract` for the extract format, `data.json` for json (never both). */
  jsonKey: 'json' | 'extract';
  warnings: string[];
}

/**
 * Body of `POST /v1/scrape` (docs/wire-contract.md §11.1), parsed into the v2 request it means (see
 * v1-to-v2-options.ts for the mapping shared with v1 crawl and batch).
 */
export const ScrapeRequestV1 = strictBody(
  { ...scrapeOptionsV1Shape, ...commonFields, url: UrlInput, agent: AgentV1.optional() },
  'v1',
)
  .superRefine(refineScrapeOptionsV2)
  .superRefine(refineScrapeOptionsV1)
  .transform((v1, ctx): ScrapeV1 => {
    const { url, origin, integration, zeroDataRetention, ...options } = v1;
    const { options: mapped, jsonKey, warnings } = v1ToV2Options(options, ctx);
    return {
      request: {
        ...mapped,
        url,
        ...(origin === undefined ? {} : { origin }),
        ...(integration === undefined ? {} : { integration }),
        ...(zeroDataRetention === undefined ? {} : { zeroDataRetention }),
      },
      jsonKey,
      warnings,
    };
  });
export type ScrapeRequestV1 = z.infer<typeof ScrapeRequestV1>;
