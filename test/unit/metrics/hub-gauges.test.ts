import { describe, expect, it } from 'vitest';
import type { PageTaskSpec } from '../../../shared/protocol/messages';
import { createTaskScheduler, type Worker } from '../../../server/browsers/hub/task-scheduler';
import { createTabhiveMetrics } from '../../../server/platform/metrics/create-tabhive-metrics';
import { registerHubGauges } from '../../../server/browsers/metrics/hub-gauges';
import { parsePrometheusText, sampleSum } from '../../helpers/prometheus-text';

const page: PageTaskSpec = { url: 'http://pages.test/', waitForMs: 0 };

const worker = (id: string, capacity: number, extra: Partial<Worker> = {}): Worker => ({
  id,
  capacity,
  send: () => undefined,
  cancel: () => undefined,
  ...extra,
});

describe('the hub gauges', () => {
  it('show browsers, tabs and free tabs by class and team, and the queue by priority', async () => {
    const scheduler = createTaskScheduler({ noBrowserGraceMs: 60_000 });
    scheduler.addWorker(worker('pool-1', 2));
    scheduler.addWorker(worker('stealth-1', 3, { browserClass: 'stealth' }));
    scheduler.addWorker(
      worker('donated-1', 1, {
        donation: {
          teamId: 'acme',
          enabled: true,
          allowedDomains: ['members.test'],
          maxTabs: 1,
          allowJavascript: false,
        },
      }),
    );
    // Two tasks fill the pool browser; two more wait, one of them a job's page.
    const runs = [
      scheduler.run(page, { timeoutMs: 60_000 }),
      scheduler.run(page, { timeoutMs: 60_000 }),
      scheduler.run(page, { timeoutMs: 60_000 }),
      scheduler.run(page, { timeoutMs: 60_000, priority: 'background' }),
    ];
    for (const run of runs) run.catch(() => undefined);

    const metrics = createTabhiveMetrics();
    // With METRICS_TOKEN set, only the operator reads /metrics: team ids are shown.
    registerHubGauges(metrics, { schedulerSnapshot: () => scheduler.snapshot() }, { teamIds: true });
    const samples = parsePrometheusText(await metrics.registry.metrics());
    const pool = { class: 'basic', team: 'pool' };
    expect(sampleSum(samples, 'tabhive_browsers', pool)).toBe(1);
    expect(sampleSum(samples, 'tabhive_browser_slots', pool)).toBe(2);
    expect(sampleSum(samples, 'tabhive_browser_slots_free', pool)).toBe(0);
    expect(sampleSum(samples, 'tabhive_browser_slots_free', { class: 'stealth', team: 'pool' })).toBe(3);
    expect(sampleSum(samples, 'tabhive_browsers', { class: 'basic', team: 'acme' })).toBe(1);
    expect(sampleSum(samples, 'tabhive_browser_slots_free', { class: 'basic', team: 'acme' })).toBe(1);
    expect(sampleSum(samples, 'tabhive_hub_queued_tasks', { priority: 'interactive' })).toBe(1);
    expect(sampleSum(samples, 'tabhive_hub_queued_tasks', { priority: 'background' })).toBe(1);

    // A team whose browsers left is not shown with its last count.
    scheduler.removeWorker('donated-1');
    const later = parsePrometheusText(await metrics.registry.metrics());
    expect(sampleSum(later, 'tabhive_browsers', { team: 'acme' })).toBe(0);
    expect(later.some((sample) => sample.labels.team === 'acme')).toBe(false);
    scheduler.close();
  });

  it('name no team by default (no METRICS_TOKEN): every team browser counts under "team"', async () => {
    const scheduler = createTaskScheduler({ noBrowserGraceMs: 60_000 });
    scheduler.addWorker(worker('pool-1', 2));
    for (const [id, teamId] of [
      ['donated-1', 'acme'],
      ['donated-2', 'globex'],
    ] as const) {
      scheduler.addWorker(
        worker(id, 1, {
          donation: {
            teamId,
            enabled: true,
            allowedDomains: ['members.test'],
            maxTabs: 1,
            allowJavascript: false,
          },
        }),
      );
    }
    const metrics = createTabhiveMetrics();
    registerHubGauges(metrics, { schedulerSnapshot: () => scheduler.snapshot() });
    const text = await metrics.registry.metrics();
    expect(text).not.toMatch(/acme|globex/);
    const samples = parsePrometheusText(text);
    expect(sampleSum(samples, 'tabhive_browsers', { class: 'basic', team: 'team' })).toBe(2);
    expect(sampleSum(samples, 'tabhive_browsers', { class: 'basic', team: 'pool' })).toBe(1);
    scheduler.close();
  });
});
