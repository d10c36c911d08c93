import { Gauge } from 'prom-client';
import type { Log } from '../log';
import type { PageTaskState } from '../store';
import { createCachedReading } from './cached-reading';
import type { TabhiveMetrics } from './create-tabhive-metrics';

const PAGE_TASK_STATES = [
  'queued',
  'leased',
  'done',
  'failed',
  'cancelled',
] as const satisfies readonly PageTaskState[];
/** Counting tasks by state costs a store query each: a scrape every few seconds reuses the last counts. */
export const STORE_READING_MAX_AGE_MS = 5_000;
/** A /metrics scrape waits this long for the store, then answers with the last counts. */
export const STORE_READING_WAIT_MS = 1_000;

/**
 * Gauges read from the store when /metrics is scraped: page tasks of crawl and batch jobs by state
 * (`queued` is the cluster's queue of job pages) and the webhook backlog. Both count the whole
 * cluster's documents, so every instance reports the same values: aggregate them with max(), not sum().
 */
export function registerStoreGauges(
  metrics: Pick<TabhiveMetrics, 'registry'>,
  {
    pageTasks,
    webhookOutbox,
    log,
    maxAgeMs = STORE_READING_MAX_AGE_MS,
    waitMs = STORE_READING_WAIT_MS,
  }: {
    pageTasks: { countAllInState(state: PageTaskState): Promise<number> };
    webhookOutbox: { countUndelivered(): Promise<number> };
    log: Log;
    maxAgeMs?: number;
    waitMs?: number;
  },
): void {
  const taskCounts = createCachedReading({
    what: 'page tasks by state',
    read: async () =>
      Object.fromEntries(
        await Promise.all(
          PAGE_TASK_STATES.map(async (state) => [state, await pageTasks.countAllInState(state)] as const),
        ),
      ),
    log,
    maxAgeMs,
    waitMs,
  });
  const backlog = createCachedReading({
    what: 'webhook backlog',
    read: () => webhookOutbox.countUndelivered(),
    log,
    maxAgeMs,
    waitMs,
  });
  const pageTaskGauge = new Gauge({
    name: 'tabhive_page_tasks',
    help: 'Page tasks of crawl and batch jobs in the store (cluster-wide), by state; queued is the job queue depth.',
    labelNames: ['state'] as const,
    registers: [metrics.registry],
    async collect() {
      const counts = await taskCounts();
      if (counts === undefined) return;
      for (const [state, count] of Object.entries(counts)) pageTaskGauge.set({ state }, count);
    },
  });
  const backlogGauge = new Gauge({
    name: 'tabhive_webhook_deliveries_pending',
    help: 'Webhook deliveries not yet delivered nor given up (cluster-wide).',
    registers: [metrics.registry],
    async collect() {
      const count = await backlog();
      if (count !== undefined) backlogGauge.set(count);
    },
  });
}
