import type { JobService } from '../jobs';
import type { LlmProvider } from '../../platform/llm';
import type { Log } from '../../platform/log';
import type { Scraper } from '../../scrape/types';
import type { SearchService } from '../search';
import type { Stores } from '../../platform/store';
import type { UrlPolicy } from '../../platform/url-policy';
import { createMonitorScheduler } from './create-monitor-scheduler';
import { type MonitorService, createMonitorService } from './create-monitor-service';
import { createMonitorNotifier } from './monitor-notifications';

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
  mailEnabled = false,
  linkBase,
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
  /** An SMTP server is configured: recipients get opt-in and change e-mails through the outbox. */
  mailEnabled?: boolean;
  /** The base of links in e-mails (PUBLIC_URL, or the server's own address). */
  linkBase: string;
}): Monitors {
  const notifier = createMonitorNotifier({
    subscriptions: stores.emailSubscriptions,
    outbox: stores.webhookOutbox,
    mailEnabled,
    linkBase,
    log,
  });
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
      notifier,
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
    notifier,
  });
  return { service, start: () => scheduler.start(), stop: () => scheduler.stop() };
}
