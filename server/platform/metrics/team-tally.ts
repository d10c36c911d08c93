import type { Counter } from 'prom-client';
import { usageAttribution } from '../store';

/** A counter's values as `Counter.get()` lists them: one per label set. */
export interface CounterValue {
  labels: Partial<Record<string, string | number>>;
  value: number;
}

/** What a team's work added to a counter on this instance since it started. */
export interface TeamTallies {
  valuesOf(teamId: string): CounterValue[];
  /** The teams that added anything. */
  teams(): string[];
}

export type TeamTallied<T extends string> = Counter<T> & { byTeam: TeamTallies };

/**
 * `counter`, also tallying in memory what each team's work adds to it: the team is the usage
 * attribution of the work running when it counts (the request's key, or the job a page belongs
 * to). The console shows a team key its own figures from these; the metric itself carries no team
 * label, which would grow /metrics by a series per team. Tallies are kept per label set, so
 * they are bounded by teams × label values, as the counter is by label values.
 */
export function tallyByTeam<T extends string>(counter: Counter<T>): TeamTallied<T> {
  const tallies = new Map<string, Map<string, CounterValue>>();
  const count = counter.inc.bind(counter) as (labelsOrValue?: unknown, value?: number) => void;
  const tallied = counter as TeamTallied<T>;
  // prom-client itself sets `inc` on each counter it makes (with or without exemplars; these have
  // none), so this one is set the same way. The counter counts first: what it refuses (a bad
  // label, a negative value) throws before any tally.
  tallied.inc = ((labelsOrValue?: unknown, value?: number) => {
    count(labelsOrValue, value);
    const teamId = usageAttribution()?.teamId;
    if (teamId === undefined) return;
    const labels =
      typeof labelsOrValue === 'object' && labelsOrValue !== null
        ? (labelsOrValue as Record<string, string | number>)
        : {};
    const amount = typeof labelsOrValue === 'number' ? labelsOrValue : (value ?? 1);
    const key = JSON.stringify(Object.entries(labels).sort(([a], [b]) => a.localeCompare(b)));
    const team = tallies.get(teamId) ?? new Map<string, CounterValue>();
    tallies.set(teamId, team);
    const entry = team.get(key) ?? { labels: { ...labels }, value: 0 };
    entry.value += amount;
    team.set(key, entry);
  }) as Counter<T>['inc'];
  tallied.byTeam = {
    valuesOf: (teamId) => [...(tallies.get(teamId)?.values() ?? [])].map((entry) => ({ ...entry })),
    teams: () => [...tallies.keys()],
  };
  return tallied;
}
