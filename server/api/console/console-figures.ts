import type { BrowserHub } from '../../browsers/hub';
import type { Log } from '../../platform/log';
import {
  createFigureHistory,
  type CounterValue,
  type FigureSample,
  type TeamTallies,
} from '../../platform/metrics';
import type { Database, LedgerEntry, PageTask, Stores } from '../../platform/store';

/** How often the figures are read, and how long they are kept: the overview's charts show an hour. */
export const FIGURES_EVERY_MS = 15_000;
export const FIGURES_KEEP_MS = 60 * 60 * 1000;
/** The admin's scope: every team. Team ids never hold `*` (TeamId). */
export const EVERY_TEAM = '*';

/**
 * The overview's figures over time. Per sample: pages scraped per second and busy tabs (this
 * instance: its counters and its hub), queued pages, failed pages and credits booked in the
 * sample's interval (the whole cluster: the store every instance shares).
 */
export type ConsoleFigure = 'pagesPerSecond' | 'queued' | 'failed' | 'tabsBusy' | 'credits';

/** Figures of this instance only; the others are the cluster's. */
export const INSTANCE_FIGURES: readonly ConsoleFigure[] = ['pagesPerSecond', 'tabsBusy'];

export interface ConsoleFigureHistory {
  everyMs: number;
  keepMs: number;
  /** Whether other instances may share the store: then the instance figures are not the cluster's. */
  clustered: boolean;
  instanceFigures: readonly ConsoleFigure[];
  samples: FigureSample<ConsoleFigure>[];
}

/** A counter with its tallies by team (platform/metrics' tallyByTeam). */
export type Counted = { get(): Promise<{ values: CounterValue[] }>; byTeam: TeamTallies };

const total = (values: CounterValue[]) => values.reduce((sum, value) => sum + value.value, 0);

const countBy = <T>(items: T[], team: (item: T) => string, amount: (item: T) => number) => {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(team(item), (counts.get(team(item)) ?? 0) + amount(item));
  return counts;
};

/**
 * Samples the overview's figures every FIGURES_EVERY_MS into an hour of history: for every team
 * (the admin's view) and for each team that was active or watched its overview in the last hour,
 * never another team's figures in a team's scope. Store reads per sample: the queue's count, the
 * pages that failed and the credit entries of the interval (all teams at once), and each active
 * team's queue.
 */
export function createConsoleFigures({
  database,
  stores,
  hub,
  metrics,
  clustered,
  log,
  everyMs = FIGURES_EVERY_MS,
  keepMs = FIGURES_KEEP_MS,
  now = Date.now,
}: {
  database: Database;
  stores: Pick<Stores, 'pageTasks'>;
  hub: Pick<BrowserHub, 'schedulerSnapshot'>;
  metrics: { pagesScraped: Counted };
  clustered: boolean;
  log: Log;
  everyMs?: number;
  keepMs?: number;
  now?: () => number;
}) {
  const tasks = database.collection<PageTask>('page_tasks');
  const ledger = database.collection<LedgerEntry>('credit_ledger');
  /** When each team was last active (pages, failures, credits, a queue) or looked at its overview. */
  const lastActive = new Map<string, number>();
  /** Pages counted by the previous sample, by scope, for the rate. */
  let previous: { at: number; pages: Map<string, number> } | undefined;

  const read = async (at: number) => {
    const since = previous?.at ?? at - everyMs;
    const window = { $gt: new Date(since), $lte: new Date(at) };
    const [allPages, queuedAll, failedTasks, entries] = await Promise.all([
      metrics.pagesScraped.get().then((metric) => total(metric.values)),
      stores.pageTasks.countAllInState('queued'),
      tasks.find({ state: 'failed', updatedAt: window }),
      ledger.find({ at: window }),
    ]);
    const pages = new Map<string, number>([[EVERY_TEAM, allPages]]);
    for (const team of metrics.pagesScraped.byTeam.teams())
      pages.set(team, total(metrics.pagesScraped.byTeam.valuesOf(team)));
    const failed = countBy(
      failedTasks,
      (task) => task.teamId,
      () => 1,
    );
    const credits = countBy(
      entries,
      (entry) => entry.teamId,
      (entry) => entry.credits,
    );

    for (const team of [...failed.keys(), ...credits.keys()]) lastActive.set(team, at);
    for (const [team, count] of pages)
      if (team !== EVERY_TEAM && count !== (previous?.pages.get(team) ?? 0)) lastActive.set(team, at);
    for (const [team, seen] of lastActive) if (at - seen > keepMs) lastActive.delete(team);
    const teams = [...lastActive.keys()];
    const queued = await Promise.all(teams.map((team) => stores.pageTasks.countQueuedForTeam(team)));
    teams.forEach((team, index) => {
      if ((queued[index] ?? 0) > 0) lastActive.set(team, at);
    });

    const workers = hub.schedulerSnapshot().workers;
    const busyTabs = (team: string) =>
      workers
        .filter((worker) => team === EVERY_TEAM || worker.teamId === undefined || worker.teamId === team)
        .reduce((sum, worker) => sum + worker.running, 0);
    const rate = (scope: string) => {
      if (previous === undefined) return {};
      const before = previous.pages.get(scope) ?? 0;
      return { pagesPerSecond: Math.max(0, (pages.get(scope) ?? 0) - before) / ((at - since) / 1000) };
    };
    const sum = (counts: Map<string, number>) => [...counts.values()].reduce((a, b) => a + b, 0);

    const figures = new Map<string, Partial<Record<ConsoleFigure, number>>>();
    figures.set(EVERY_TEAM, {
      ...rate(EVERY_TEAM),
      queued: queuedAll,
      failed: sum(failed),
      tabsBusy: busyTabs(EVERY_TEAM),
      credits: sum(credits),
    });
    teams.forEach((team, index) =>
      figures.set(team, {
        ...rate(team),
        queued: queued[index] ?? 0,
        failed: failed.get(team) ?? 0,
        tabsBusy: busyTabs(team),
        credits: credits.get(team) ?? 0,
      }),
    );
    previous = { at, pages };
    return figures;
  };

  const history = createFigureHistory<ConsoleFigure>({
    what: 'console overview',
    everyMs,
    keepMs,
    read,
    log,
    now,
  });

  return {
    start: history.start,
    stop: history.stop,
    tick: history.tick,
    /** A team looked at its overview: its figures are read from now on, for the next hour. */
    watch(teamId: string) {
      lastActive.set(teamId, now());
    },
    /** The last hour of a scope: EVERY_TEAM (the admin) or a team id. */
    history(scope: string): ConsoleFigureHistory {
      return {
        everyMs,
        keepMs,
        clustered,
        instanceFigures: INSTANCE_FIGURES,
        samples: history.samples(scope),
      };
    },
  };
}

export type ConsoleFigures = ReturnType<typeof createConsoleFigures>;
