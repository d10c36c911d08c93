import { z } from 'zod';

/**
 * The longest `delay` between two pages of a crawl, in seconds: one page an hour is already slower
 * than any crawl can usefully be, and a bound keeps the wait a date the store can hold (`delay:
 * 1e300` made the first page wait for an Invalid Date, so the crawl never started). The job runner
 * holds robots.txt's `Crawl-delay` to the same bound.
 */
export const MAX_CRAWL_DELAY_S = 3600;

/** `delay` of crawl requests (and map requests, which accept the crawl fields): seconds, at most an hour. */
export const CrawlDelay = z
  .number()
  .positive()
  .max(MAX_CRAWL_DELAY_S, { error: `delay must be at most ${MAX_CRAWL_DELAY_S} seconds (1 hour)` });
