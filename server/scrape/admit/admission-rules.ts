import type { ScrapeAdmission } from '../types';

/** `scrape`: a page someone waits for (scrape, search, map); `job`: a crawl, batch or other job's page. */
export type ScrapeSource = 'scrape' | 'job';

/** What a scrape's admission asks of the runner (types/scraper.ts ScrapeAdmission). */
export interface AdmissionRules {
  /** Holds one of the team's concurrency slots while it runs (429 beyond). */
  readonly teamSlot: boolean;
  /** Reserves the page's credits before it runs (402 when short) and settles them from the document. */
  readonly reservesCredits: boolean;
  /**
   * A job page: each browser task waits for one of the job pages' browser slots and runs at
   * background priority, so a task someone waits for takes the next tab that frees.
   */
  readonly jobPage: boolean;
  /** The `source` label of `tabhive_pages_scraped_total` and `tabhive_scrape_duration_seconds`. */
  readonly metricsSource: ScrapeSource;
  /** Remembers the page settings for `POST /v2/scrape/:id/interact` (emit/interact-options.ts). */
  readonly remembersInteractOptions: boolean;
}

const RULES: Record<ScrapeAdmission, AdmissionRules> = {
  api: {
    teamSlot: true,
    reservesCredits: true,
    jobPage: false,
    metricsSource: 'scrape',
    remembersInteractOptions: true,
  },
  'product-job': {
    teamSlot: true,
    reservesCredits: true,
    jobPage: true,
    metricsSource: 'job',
    remembersInteractOptions: false,
  },
  'monitor-check': {
    teamSlot: false,
    reservesCredits: true,
    jobPage: true,
    metricsSource: 'job',
    remembersInteractOptions: false,
  },
  'job-page': {
    teamSlot: false,
    reservesCredits: false,
    jobPage: true,
    metricsSource: 'job',
    remembersInteractOptions: false,
  },
  'product-request': {
    teamSlot: false,
    reservesCredits: false,
    jobPage: false,
    metricsSource: 'scrape',
    remembersInteractOptions: false,
  },
};

export const admissionRules = (admission: ScrapeAdmission): AdmissionRules => RULES[admission];
