import type { StoredMonitor, StoredMonitorCheck, StoredMonitorPage } from '../../platform/store';
import { runsPerMonth } from './monitor-schedule';
import { pagesPerCheck, readTargets } from './monitor-targets';
import { MONITOR_PAGE_CREDITS } from './monitor-credits';

const iso = (date: Date | null | undefined) => (date == null ? null : new Date(date).toISOString());

export const emptySummary = () => ({ totalPages: 0, same: 0, changed: 0, new: 0, removed: 0, error: 0 });

/** A monitor as the clients read it (Firecrawl's `Monitor`). */
export function monitorView(monitor: StoredMonitor) {
  const targets = readTargets(monitor.targets);
  const schedule = {
    cron: monitor.cron,
    timezone: monitor.timezone,
    ...(monitor.scheduleText === undefined ? {} : { text: monitor.scheduleText }),
  };
  return {
    id: monitor._id,
    name: monitor.name,
    status: monitor.status,
    schedule,
    nextRunAt: iso(monitor.nextRunAt),
    lastRunAt: iso(monitor.lastRunAt),
    currentCheckId: monitor.currentCheckId ?? null,
    targets,
    webhook: monitor.webhook ?? null,
    notification: monitor.notification ?? null,
    retentionDays: monitor.retentionDays,
    estimatedCreditsPerMonth: runsPerMonth(monitor) * pagesPerCheck(targets) * MONITOR_PAGE_CREDITS,
    lastCheckSummary: monitor.lastCheckSummary ?? null,
    goal: monitor.goal ?? null,
    judgeEnabled: monitor.judgeEnabled,
    createdAt: iso(monitor.createdAt)!,
    updatedAt: iso(monitor.updatedAt)!,
  };
}

/** A check without its pages (Firecrawl's `MonitorCheck`). */
export function checkView(check: StoredMonitorCheck) {
  const finished = check.status !== 'running';
  return {
    id: check._id,
    monitorId: check.monitorId,
    status: check.status,
    trigger: check.trigger,
    scheduledFor: iso(check.scheduledFor),
    startedAt: iso(check.startedAt),
    finishedAt: iso(check.finishedAt),
    estimatedCredits: null,
    reservedCredits: null,
    actualCredits: check.actualCredits ?? null,
    billingStatus:
      finished && (check.actualCredits ?? 0) > 0 ? ('confirmed' as const) : ('not_applicable' as const),
    summary: check.summary,
    targetResults: check.targetResults,
    notificationStatus: null,
    error: check.error ?? null,
    ...(check.warnings === undefined || check.warnings.length === 0 ? {} : { warnings: check.warnings }),
    createdAt: iso(check.createdAt)!,
    updatedAt: iso(check.updatedAt)!,
  };
}

/** One page of a check (Firecrawl's `MonitorCheckPage`). */
export function pageView(page: StoredMonitorPage) {
  return {
    id: page._id,
    targetId: page.targetId,
    url: page.url,
    status: page.status,
    previousScrapeId: page.previousScrapeId ?? null,
    currentScrapeId: page.scrapeId ?? null,
    statusCode: page.statusCode ?? null,
    error: page.error ?? null,
    metadata: page.metadata ?? null,
    diff: page.diff ?? null,
    snapshot: page.snapshot ?? null,
    judgment: page.judgment ?? null,
    createdAt: iso(page.createdAt)!,
  };
}
