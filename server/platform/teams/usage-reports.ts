import {
  type CreditLedgerStore,
  type PageTaskStore,
  monthOf,
  type UsageMonth,
  type UsageMonthStore,
} from '../store';
import type { TeamLimits } from './team-limits';

/** One month of a team's usage, as the historical usage routes answer it. */
export interface UsagePeriod {
  startDate: string;
  endDate: string;
  apiKey?: string;
  used: number;
}

/** What queue status reports (the clients' QueueStatusResponse, without `success`). */
export interface QueueStatus {
  jobsInQueue: number;
  activeJobsInQueue: number;
  waitingJobsInQueue: number;
  maxConcurrency: number;
  mostRecentSuccess: string | null;
}

const DAY_MS = 24 * 60 * 60_000;

/** The first and the last millisecond of a `YYYY-MM` month, UTC. */
function monthBounds(month: string): { startDate: string; endDate: string } {
  const [year, index] = month.split('-').map(Number) as [number, number];
  const start = new Date(Date.UTC(year, index - 1, 1));
  const end = new Date(Date.UTC(year, index, 1) - 1);
  return { startDate: start.toISOString(), endDate: end.toISOString() };
}

/**
 * Usage by month, oldest first, from the monthly rollups: one period per month, or with `byApiKey`
 * one per month and key (work no key is known for, booked before keys were recorded, under
 * `apiKey: "unknown"`). Months that come to nothing are left out, except that without `byApiKey`
 * the current month is always listed, so a team that has used nothing yet sees one period of 0.
 */
export function usagePeriods(
  months: readonly UsageMonth[],
  measure: 'credits' | 'tokens',
  byApiKey: boolean,
  now = new Date(),
): UsagePeriod[] {
  const groups = new Map<string, { month: string; apiKey: string | undefined; used: number }>();
  const current = monthOf(now);
  if (!byApiKey) groups.set(current, { month: current, apiKey: undefined, used: 0 });
  for (const entry of months) {
    const apiKey = byApiKey ? entry.apiKey || 'unknown' : undefined;
    const key = apiKey === undefined ? entry.month : `${entry.month}|${apiKey}`;
    const group = groups.get(key) ?? { month: entry.month, apiKey, used: 0 };
    group.used += entry[measure];
    groups.set(key, group);
  }
  return [...groups.values()]
    .filter((group) => group.used > 0 || (!byApiKey && group.month === current))
    .sort((a, b) => a.month.localeCompare(b.month) || (a.apiKey ?? '').localeCompare(b.apiKey ?? ''))
    .map((group) => ({
      ...monthBounds(group.month),
      ...(group.apiKey === undefined ? {} : { apiKey: group.apiKey }),
      used: group.used,
    }));
}

/** The team usage reports the clients ask for beyond the balance: history and queue. */
export function createUsageReports({
  usageMonths,
  creditLedger,
  pageTasks,
  limits,
}: {
  usageMonths: UsageMonthStore;
  creditLedger: CreditLedgerStore;
  pageTasks: PageTaskStore;
  limits: TeamLimits;
}) {
  return {
    async history(teamId: string, measure: 'credits' | 'tokens', byApiKey: boolean, now = new Date()) {
      return usagePeriods(await usageMonths.forTeam(teamId), measure, byApiKey, now);
    },

    /**
     * The team's queue: pages of its crawls and batches waiting for a browser, the work running now
     * (those pages and its single scrapes), its concurrency limit, and when its latest page
     * succeeded within the last day.
     */
    async queueStatus(teamId: string, now = new Date()): Promise<QueueStatus> {
      const [waiting, running, lastSuccess] = await Promise.all([
        pageTasks.countQueuedForTeam(teamId),
        limits.concurrency(teamId),
        creditLedger.lastPageChargedSince(teamId, new Date(now.getTime() - DAY_MS)),
      ]);
      return {
        jobsInQueue: waiting + running.concurrency,
        activeJobsInQueue: running.concurrency,
        waitingJobsInQueue: waiting,
        maxConcurrency: running.maxConcurrency,
        mostRecentSuccess: lastSuccess?.toISOString() ?? null,
      };
    },
  };
}

export type UsageReports = ReturnType<typeof createUsageReports>;
