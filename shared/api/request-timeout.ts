import { z } from 'zod';

/**
 * The longest `timeout` a request may ask for, in ms: 5 minutes, where Firecrawl's scrape engine
 * stops whatever the caller asked (docs/wire-contract.md §3.4) and the deadline a v2 scrape gets by default.
 * It also keeps every timer made from a timeout (plus at most a minute of waits) far below
 * setTimeout's 2^31 − 1 ms, past which Node fires the timer at once.
 */
export const MAX_REQUEST_TIMEOUT_MS = 300_000;

/** `timeout` of scrape, batch, crawl, map and search requests: a whole number of ms, 1 to 5 minutes. */
export const RequestTimeout = z
  .int()
  .positive()
  .max(MAX_REQUEST_TIMEOUT_MS, {
    error: `timeout must be at most ${MAX_REQUEST_TIMEOUT_MS} ms (5 minutes)`,
  });
