import type { Database, Filter, LedgerEntry } from '../../platform/store';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Ledger entries read for one report at most: a busy team's fortnight, well within one answer. */
const MAX_ENTRIES = 100_000;

export interface UsageReport {
  days: Array<{ day: string; credits: number }>;
  byKey: Array<{ apiKey: string; credits: number }>;
  byRoute: Array<{ route: string; credits: number }>;
  byTeam: Array<{ teamId: string; credits: number }>;
  /** More entries than one report reads: the figures are of the newest MAX_ENTRIES. */
  truncated: boolean;
}

const totals = (map: Map<string, number>) =>
  [...map.entries()].sort((a, b) => b[1] - a[1]).map(([name, credits]) => ({ name, credits }));

/**
 * Credits by day (UTC), by masked API key, by route and by team over the last `days` days, from
 * the credit ledger (charged entries; reservations of work still running are not final). The
 * usage routes report months; the console's chart wants days.
 */
export function createConsoleUsage({ database }: { database: Database }) {
  const ledger = database.collection<LedgerEntry>('credit_ledger');
  return async ({
    teamId,
    days,
    now = new Date(),
  }: {
    teamId: string | undefined;
    days: number;
    now?: Date;
  }) => {
    const first = new Date(
      Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - (days - 1) * DAY_MS,
    );
    const filter: Filter = {
      at: { $gte: first },
      state: { $ne: 'reserved' },
      ...(teamId === undefined ? {} : { teamId }),
    };
    const entries = await ledger.find(filter, { sort: { at: -1 }, limit: MAX_ENTRIES + 1 });
    const byDay = new Map<string, number>();
    for (let i = 0; i < days; i++)
      byDay.set(new Date(first.getTime() + i * DAY_MS).toISOString().slice(0, 10), 0);
    const byKey = new Map<string, number>();
    const byRoute = new Map<string, number>();
    const byTeam = new Map<string, number>();
    const add = (map: Map<string, number>, key: string, credits: number) =>
      map.set(key, (map.get(key) ?? 0) + credits);
    for (const entry of entries.slice(0, MAX_ENTRIES)) {
      const day = new Date(entry.at).toISOString().slice(0, 10);
      if (byDay.has(day)) add(byDay, day, entry.credits);
      add(byKey, entry.apiKey ?? 'unknown', entry.credits);
      add(byRoute, entry.reason.split(' ')[0] ?? entry.reason, entry.credits);
      add(byTeam, entry.teamId, entry.credits);
    }
    return {
      days: [...byDay.entries()].map(([day, credits]) => ({ day, credits })),
      byKey: totals(byKey).map(({ name, credits }) => ({ apiKey: name, credits })),
      byRoute: totals(byRoute).map(({ name, credits }) => ({ route: name, credits })),
      byTeam:
        teamId === undefined ? totals(byTeam).map(({ name, credits }) => ({ teamId: name, credits })) : [],
      truncated: entries.length > MAX_ENTRIES,
    } satisfies UsageReport;
  };
}

export type ConsoleUsage = ReturnType<typeof createConsoleUsage>;
