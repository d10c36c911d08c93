import { Gauge } from 'prom-client';
import type { SchedulerSnapshot } from '../hub';
import type { TabhiveMetrics } from '../../platform/metrics';

/** The `team` label of the shared pool's browsers. */
export const POOL_TEAM = 'pool';
/** The `team` label of every team's own browsers when team ids are not shown. */
export const ANY_TEAM = 'team';

/**
 * Gauges read from this instance's hub when /metrics is scraped: connected browsers, their tabs
 * and free tabs by class and team (a team's donated or own browsers carry its id, the shared pool
 * `pool`), and the browser tasks waiting here by priority. Draining browsers count as browsers
 * but offer no free tabs.
 *
 * Team ids name the teams that use this server and when their people's browsers are on: they are
 * shown only with `teamIds` (METRICS_TOKEN set, so that only the operator reads /metrics).
 * Otherwise every team's browsers are summed under `team`, which keeps the series a default,
 * unauthenticated Prometheus scrape reads without telling anyone who the tenants are.
 */
export function registerHubGauges(
  metrics: Pick<TabhiveMetrics, 'registry'>,
  hub: { schedulerSnapshot(): SchedulerSnapshot },
  { teamIds = false }: { teamIds?: boolean } = {},
): void {
  const registers = [metrics.registry];
  const labelNames = ['class', 'team'] as const;
  // Each gauge takes a snapshot of its own: a walk over a few browsers, cheaper than sharing one.
  const snapshot = () => hub.schedulerSnapshot();
  const byClassAndTeam = (value: (worker: SchedulerSnapshot['workers'][number]) => number) => {
    const sums = new Map<string, { class: string; team: string; value: number }>();
    for (const worker of snapshot().workers) {
      const team = worker.teamId === undefined ? POOL_TEAM : teamIds ? worker.teamId : ANY_TEAM;
      const key = `${worker.browserClass}\n${team}`;
      const sum = sums.get(key) ?? { class: worker.browserClass, team, value: 0 };
      sum.value += value(worker);
      sums.set(key, sum);
    }
    return [...sums.values()];
  };
  const fill = (
    gauge: Gauge<'class' | 'team'>,
    value: (worker: SchedulerSnapshot['workers'][number]) => number,
  ) => {
    // Reset first: a team whose browsers all left must not keep its last count.
    gauge.reset();
    for (const sum of byClassAndTeam(value)) gauge.set({ class: sum.class, team: sum.team }, sum.value);
  };

  const browsers: Gauge<'class' | 'team'> = new Gauge({
    name: 'tabhive_browsers',
    help: "Browsers connected to this instance's hub, by class and team (pool: the shared pool).",
    labelNames,
    registers,
    collect: () => fill(browsers, () => 1),
  });
  const slots: Gauge<'class' | 'team'> = new Gauge({
    name: 'tabhive_browser_slots',
    help: "Tabs (concurrent tasks) of the browsers connected to this instance's hub, by class and team.",
    labelNames,
    registers,
    collect: () => fill(slots, (worker) => worker.capacity),
  });
  const free: Gauge<'class' | 'team'> = new Gauge({
    name: 'tabhive_browser_slots_free',
    help: "Free tabs of the browsers connected to this instance's hub (draining ones offer none), by class and team.",
    labelNames,
    registers,
    collect: () =>
      fill(free, (worker) => (worker.draining ? 0 : Math.max(0, worker.capacity - worker.running))),
  });
  const queued = new Gauge({
    name: 'tabhive_hub_queued_tasks',
    help: "Browser tasks waiting for a free tab in this instance's hub, by priority (interactive, background).",
    labelNames: ['priority'] as const,
    registers,
    collect() {
      const { queued: waiting } = snapshot();
      queued.set({ priority: 'interactive' }, waiting.interactive);
      queued.set({ priority: 'background' }, waiting.background);
    },
  });
}
