import { strictBody } from '../strict-body';
import { refineScrapeOptionsV2, scrapeOptionsV2Shape } from '../v2/scrape-options';
import { AgentV1, refineScrapeOptionsV1, scrapeOptionsV1Shape } from './scrape-options';

/**
 * v1 scrape options as crawl and batch scrape take them (docs/wire-contract.md §11.1): the same fields, rules
 * and v2 mapping as /v1/scrape, except that `timeout` has no default outside /v1/scrape.
 */
export const crawlScrapeOptionsV1Shape = {
  ...scrapeOptionsV1Shape,
  timeout: scrapeOptionsV2Shape.timeout,
  agent: AgentV1.optional(),
};

/** The nested, strict `scrapeOptions` of `POST /v1/crawl`, parsed into v2 options. */
export const ScrapeOptionsV1 = strictBody(crawlScrapeOptionsV1Shape, 'v1')
  .superRefine(refineScrapeOptionsV2)
  .superRefine(refineScrapeOptionsV1);
