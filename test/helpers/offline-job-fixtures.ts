import type { Egress } from '../../server/platform/egress/create-egress';
import type { JobSpec } from '../../server/products/jobs/job-spec';
import { ScrapeOptionsV2 } from '../../shared/api/v2/scrape-options';

/** An egress for job runners under test: no sitemap, robots.txt or webhook ever answers. */
export const noEgress: Egress = {
  get: () => Promise.reject(new Error('offline')),
  post: () => Promise.reject(new Error('offline')),
  close: async () => undefined,
};

/** A v2 batch with default scrape options. */
export const BATCH: JobSpec = {
  version: 'v2',
  scrapeOptions: ScrapeOptionsV2.parse({}),
  zeroDataRetention: false,
  options: {},
};
