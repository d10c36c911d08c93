import type { JobService } from '../jobs';
import type { LlmProvider } from '../../platform/llm';
import type { Log } from '../../platform/log';
import type { Scraper } from '../../scrape/types';
import type { SearchService } from '../search';
import type { Stores } from '../../platform/store';
import type { UrlPolicy } from '../../platform/url-policy';
import { createMonitorScheduler } from './create-monitor-scheduler';
import { type MonitorService, createMonitorService } from './create-monitor-service';

export interface Monitors {
  service: MonitorService;
  start(): void;
  /** Lets running checks finish (a while), then stops them; call before the stores close. */
  stop(): Promise<void>;
}

/** The monitor service and this instance's scheduler, over Tabhive's own scraper, crawl jobs and search. */
export function createMonitors({
  stores,
  scraper,
  jobs,
  search,
  llm,
  urlPolicy,
  log,
  minIntervalSeconds,
  leaseMs,
  tickMs,
}: {
  stores: Stores;
  /** Books each page on the team's ledger (admission `monitor-check`). */
  scraper: Scraper;
  jobs: JobService | undefined;
  search: SearchService | undefined;
  llm: LlmProvider | undefined;
  urlPolicy: UrlPolicy | undefined;
  log: Log;
  minIntervalSeconds: number;
  leaseMs?: number;
  tickMs?: number;
}): Monitors {
  const scheduler = createMonitorScheduler({
    monitors: stores.monitors,
    checks: stores.monitorChecks,
    runner: {
      scraper,
      jobs,
      search,
      changeSnapshots: stores.changeSnapshots,
      checks: stores.monitorChecks,
      teams: stores.teams,
      outbox: stores.webhookOutbox,
      llm,
      log,
    },
    log,
    ...(leaseMs === undefined ? {} : { leaseMs }),
    ...(tickMs === undefined ? {} : { tickMs }),
  });
  const service = createMonitorService({
    monitors: stores.monitors,
    checks: stores.monitorChecks,
    scheduler,
    urlPolicy,
    minIntervalSeconds,
    hasLlm: llm !== undefined,
  });
  return { service, start: () => scheduler.start(), stop: () => scheduler.stop() };
}
