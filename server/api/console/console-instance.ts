import type { BrowserDetails, BrowserHub } from '../../browsers/hub';
import type { CounterValue } from '../../platform/metrics';
import type { Counted } from './console-figures';
import type { ConsoleJobReader } from './console-job-reader';

const HOUR_MS = 60 * 60 * 1000;

export interface ConsoleBrowser {
  id: string;
  kind: 'launched' | 'donated' | 'node';
  browserClass: string;
  /** The team it serves; null for the shared pool. */
  teamId: string | null;
  draining: boolean;
  /** Tabs it offers and tabs in use (tasks running on it now). */
  tabs: number;
  tabsInUse: number;
  /** Page tasks it finished over this connection. */
  tasksDone: number;
  windows: number | null;
  /** What its hello said: the extension's version and the browser's user agent. */
  extensionVersion: string | null;
  userAgent: string | null;
  /**
   * The tasks it runs now and its last failures (newest first), URLs without query or
   * credentials; null where the key may see how many only (a team key, the shared pool's browsers).
   */
  runningTasks: ConsoleBrowserTask[] | null;
  recentFailures: ConsoleBrowserFailure[] | null;
  recentFailureCount: number;
}

export interface ConsoleBrowserTask {
  taskId: string;
  url: string;
  startedAt: string;
}

export interface ConsoleBrowserFailure {
  at: string;
  url: string;
  code: string;
  message: string;
}

type Hub = Pick<BrowserHub, 'schedulerSnapshot' | 'engineStats' | 'browserStatuses'> &
  // Hubs without it (tests' stand-ins) list their browsers without details.
  Partial<Pick<BrowserHub, 'browserDetails'>>;

/**
 * The browsers connected to this instance's hub, one row each. `viewer`: a team's key sees the
 * tasks and failures of its own browsers (donated, its nodes) only; the shared pool runs every
 * team's tasks, so there it sees counts. The admin (undefined) sees everything.
 */
export function listBrowsers(hub: Hub, viewer?: { teamId: string }): ConsoleBrowser[] {
  const engine = new Map(hub.engineStats().map((stats) => [stats.id, stats]));
  const status = new Map(hub.browserStatuses().map((browser) => [browser.browserId, browser.status]));
  const details = new Map<string, BrowserDetails>(
    (hub.browserDetails?.() ?? []).map((browser) => [browser.browserId, browser]),
  );
  const mayLook = (teamId: string | undefined) => viewer === undefined || teamId === viewer.teamId;
  return hub.schedulerSnapshot().workers.map((worker) => {
    const detail = details.get(worker.id);
    const shown = mayLook(worker.teamId);
    return {
      id: worker.id,
      kind: engine.get(worker.id)?.kind ?? (worker.donated ? 'donated' : 'launched'),
      browserClass: worker.browserClass,
      teamId: worker.teamId ?? null,
      draining: worker.draining,
      tabs: worker.capacity,
      tabsInUse: worker.running,
      tasksDone: engine.get(worker.id)?.tasks ?? 0,
      windows: status.get(worker.id)?.windows ?? null,
      extensionVersion: detail?.extensionVersion ?? null,
      userAgent: detail?.userAgent ?? null,
      runningTasks: shown
        ? (detail?.runningTasks ?? []).map(({ taskId, url, startedAt }) => ({ taskId, url, startedAt }))
        : null,
      recentFailures: shown
        ? (detail?.recentFailures ?? []).map(({ at, url, code, message }) => ({ at, url, code, message }))
        : null,
      recentFailureCount: detail?.recentFailures.length ?? 0,
    };
  });
}

/** The sum of a counter's values, or of those with `label` set to its value. */
const sum = (values: CounterValue[], label?: [string, string]) =>
  values
    .filter((value) => label === undefined || value.labels[label[0]] === label[1])
    .reduce((total, value) => total + value.value, 0);

export interface ConsoleOverview {
  at: string;
  /**
   * Pages scraped and cache lookups since this instance started: every team's for the admin, the
   * key's team's own for a team key (its tallies; no other team's work is in them).
   */
  pagesScrapedTotal: number;
  cacheHits: number;
  cacheMisses: number;
  /** The cluster's queued pages (the team's for a team key). */
  queuedPages: number;
  /** Browser tasks waiting in this instance's hub, every team's: for the admin only. */
  browserTasksWaiting: number | null;
  browsers: number;
  tabs: number;
  tabsInUse: number;
  errorsLastHour: number;
  /** Other instances may share the store: the counters and browsers are this instance's only. */
  clustered: boolean;
}

/**
 * The overview's figures now. Rates (pages/s) are the client's, from two readings of the
 * counters; the pool's browsers are shown to every key, as /health shows their count.
 */
export async function readOverview({
  hub,
  metrics,
  jobs,
  teamId,
  admin,
  clustered = false,
  now = new Date(),
}: {
  hub: Hub;
  metrics: { pagesScraped: Counted; cacheLookups: Counted };
  jobs: ConsoleJobReader;
  teamId: string | undefined;
  admin: boolean;
  clustered?: boolean;
  now?: Date;
}): Promise<ConsoleOverview> {
  const snapshot = hub.schedulerSnapshot();
  const visible = snapshot.workers.filter(
    (worker) => admin || worker.teamId === undefined || worker.teamId === teamId,
  );
  const valuesOf = async (counter: Counted) =>
    teamId === undefined ? (await counter.get()).values : counter.byTeam.valuesOf(teamId);
  const [queuedPages, errorsLastHour, pages, lookups] = await Promise.all([
    jobs.queued(teamId),
    jobs.recentFailures(teamId, new Date(now.getTime() - HOUR_MS)),
    valuesOf(metrics.pagesScraped),
    valuesOf(metrics.cacheLookups),
  ]);
  return {
    at: now.toISOString(),
    pagesScrapedTotal: sum(pages),
    cacheHits: sum(lookups, ['result', 'hit']),
    cacheMisses: sum(lookups, ['result', 'miss']),
    queuedPages,
    browserTasksWaiting: admin ? Object.values(snapshot.queued).reduce((a, b) => a + b, 0) : null,
    browsers: visible.length,
    tabs: visible.reduce((total, worker) => total + (worker.draining ? 0 : worker.capacity), 0),
    tabsInUse: visible.reduce((total, worker) => total + worker.running, 0),
    errorsLastHour,
    clustered,
  };
}
