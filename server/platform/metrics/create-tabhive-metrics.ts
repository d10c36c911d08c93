import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { createScrapeEngines } from './scrape-engines';
import { tallyByTeam } from './team-tally';

/** Seconds, from a scrape served by the cache (milliseconds) to a slow page on a busy browser (minutes). */
const LATENCY_BUCKETS_SECONDS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
/** A page's stages: a derivation of a small page takes a millisecond, a slow page's settle seconds. */
const STAGE_BUCKETS_SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Store operations: a cached read takes microseconds, a MongoDB round trip milliseconds. */
const STORE_BUCKETS_SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5];

/**
 * The metrics of one Tabhive instance, in a registry of its own rather than prom-client's global
 * one: several instances may run in one process (tests, the cluster fault test), and each
 * `/metrics` must show its own counts. The gauges that read the hub and the store are added by
 * hub-gauges.ts and store-gauges.ts once those exist.
 */
export function createTabhiveMetrics() {
  const registry = new Registry();
  const registers = [registry];
  // Process metrics (CPU, memory, event loop lag, GC) are the process's; each registry reports them.
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    /** Which engine served the scrape running in the current async context (pages' `engine` label). */
    engines: createScrapeEngines(),
    /** Also by team, in memory (team-tally.ts), for the console's team overview. */
    pagesScraped: tallyByTeam(
      new Counter({
        name: 'tabhive_pages_scraped_total',
        help: 'Pages scraped successfully, by where the request came from and what served it.',
        labelNames: ['source', 'engine'] as const,
        registers,
      }),
    ),
    scrapeDuration: new Histogram({
      name: 'tabhive_scrape_duration_seconds',
      help: 'One page scrape from URL check to document (admission waits excluded), by source and outcome.',
      labelNames: ['source', 'outcome'] as const,
      buckets: LATENCY_BUCKETS_SECONDS,
      registers,
    }),
    browserTaskDuration: new Histogram({
      name: 'tabhive_browser_task_duration_seconds',
      help: 'Browser page tasks from hand-over to the hub (queue wait included) to their result, by class and outcome.',
      labelNames: ['class', 'outcome'] as const,
      buckets: LATENCY_BUCKETS_SECONDS,
      registers,
    }),
    /**
     * Where a page's wall-clock time goes (docs/architecture.md, "A page's stages"): `queue` (waiting
     * for a free tab), `navigate`, `settle` and `capture` (in the browser, as it reports them),
     * `transfer` (the capture's trip from the browser to the server), `derive` (a derivation
     * worker's turn). Store writes are in tabhive_store_operation_duration_seconds.
     */
    pageStageDuration: new Histogram({
      name: 'tabhive_page_stage_seconds',
      help: "Stages of a page's scrape: queue, navigate, settle, capture, transfer, derive.",
      labelNames: ['stage'] as const,
      buckets: STAGE_BUCKETS_SECONDS,
      registers,
    }),
    cacheLookups: tallyByTeam(
      new Counter({
        name: 'tabhive_cache_lookups_total',
        help: 'Scrape cache lookups, by result (hit or miss).',
        labelNames: ['result'] as const,
        registers,
      }),
    ),
    storeOperationDuration: new Histogram({
      name: 'tabhive_store_operation_duration_seconds',
      help: 'Store operations, by collection and operation.',
      labelNames: ['collection', 'operation'] as const,
      buckets: STORE_BUCKETS_SECONDS,
      registers,
    }),
    storeErrors: new Counter({
      name: 'tabhive_store_errors_total',
      help: 'Store operations that failed because the store was unavailable, by collection and operation.',
      labelNames: ['collection', 'operation'] as const,
      registers,
    }),
  };
}

export type TabhiveMetrics = ReturnType<typeof createTabhiveMetrics>;
