import { z } from 'zod';
import { searchFieldsShape } from '../v2/search-request';
import { refineScrapeOptionsV2 } from '../v2/scrape-options';
import { strictBody } from '../strict-body';
import { crawlScrapeOptionsV1Shape } from './crawl-scrape-options';
import { FormatNameV1, refineScrapeOptionsV1 } from './scrape-options';
import { v1ToV2Options } from './v1-to-v2-options';

/** v1 search scrapes only with these formats, none by default (docs/wire-contract.md §11.5). */
const SearchFormatV1 = FormatNameV1.exclude(['summary', 'changeTracking']);

const SearchScrapeOptionsV1 = strictBody(
  { ...crawlScrapeOptionsV1Shape, formats: z.array(SearchFormatV1).default(() => []) },
  'v1',
)
  .superRefine(refineScrapeOptionsV2)
  .superRefine(refineScrapeOptionsV1);

/**
 * Body of `POST /v1/search`, parsed into the v2 search fields: web results only, the v1 scrape
 * options mapped to v2 (`jsonKey` says whether extraction answers in `extract` or `json`).
 */
export const SearchRequestV1 = strictBody(
  {
    ...searchFieldsShape,
    scrapeOptions: SearchScrapeOptionsV1.default(() => SearchScrapeOptionsV1.parse({})).transform(
      v1ToV2Options,
    ),
  },
  'v1',
).transform(({ scrapeOptions: { options, jsonKey, warnings }, ...request }) => ({
  ...request,
  scrapeOptions: options,
  jsonKey,
  warnings,
}));
export type SearchRequestV1 = z.infer<typeof SearchRequestV1>;
