import type { z } from 'zod';
import { commonFields } from '../common-fields';
import { strictBody } from '../strict-body';
import { UrlInput } from '../url-input';
import { refineScrapeOptionsV2, scrapeOptionsV2Shape } from './scrape-options';

/**
 * Body of `POST /v2/scrape` (docs/wire-contract.md §4.1): the scrape options plus the target. Strict: an
 * unknown key is a 400 with Firecrawl's "Unrecognized key in body" issue. `url` parses to
 * `{ raw, url }`: `raw` for `metadata.sourceURL`, `url` for fetching.
 */
export const ScrapeRequestV2 = strictBody(
  { ...scrapeOptionsV2Shape, ...commonFields, url: UrlInput },
  'v2',
).superRefine(refineScrapeOptionsV2);
export type ScrapeRequestV2 = z.infer<typeof ScrapeRequestV2>;
