import type { BrowserClass, PageCapture, PageTaskSpec } from '../../../shared/protocol/messages';
import { TaskError, type BrowserHub, type RunOptions } from '../hub';
import type { Log } from '../../platform/log';
import type { Stores } from '../../platform/store';
import { createBrowserPresence, type BrowserPresence } from './browser-presence';
import { createClusterTaskRouter } from './cluster-task-router';
import { INSTANCE_REPORT_MS, createInstanceRegistry, type InstanceRegistry } from './instance-registry';
import { createRelayRunner } from './relay-runner';
import { RELAY_NO_BROWSER_GRACE_MS } from './relay-task';

/** How often reservations of gone instances are looked for. */
const ORPHAN_SWEEP_MS = 5_000;
/** A reservation younger than this is left alone: its instance may not be in the registry yet. */
const ORPHAN_GRACE_MS = 30_000;
/** Teams charged within this window (and the one before) are reconciled at each sweep. */
const RECONCILE_WINDOW_MS = 15_000;

export interface Cluster {
  /** Runs a browser task here or, when no browser here may take it, on another instance. */
  runTask(spec: PageTaskSpec, options: RunOptions): Promise<PageCapture>;
  /** Pool browsers of a class this instance can reach (its own, and the other instances'). */
  connectedBrowsers(browserClass: BrowserClass): number;
  /** Browsers attached to every live instance, this one's included. */
  browsersInCluster(): number;
  /** Present when instances share the database. */
  registry: InstanceRegistry | undefined;
  start(): void;
  stop(): Promise<void>;
}

/**
 * Runs a task unless it can only fail for want of a browser (browser-presence.ts): then it fails
 * at once (in a cluster, once the other instances' reports confirm it), not after the grace
 * period. A session's own browser and a team's donated browser are waited for as before: they
 * are on their way, or the task is routed to them alone.
 */
function unlessNoBrowser(
  presence: BrowserPresence,
  runTask: (spec: PageTaskSpec, options: RunOptions) => Promise<PageCapture>,
) {
  return async (spec: PageTaskSpec, options: RunOptions): Promise<PageCapture> => {
    const waitsAnyway = options.ownBrowser === true || options.donatedOnly === true;
    if (!waitsAnyway && (await presence.confirmedNone(options.timeoutMs))) {
      throw options.browserClass === 'stealth'
        ? new TaskError('NO_STEALTH_BROWSER', 'No browser is attached to any instance of this server')
        : new TaskError('NO_BROWSER', 'No browser is attached to any instance of this server');
    }
    return runTask(spec, options);
  };
}

/**
 * This instance's part in a cluster of instances on one MongoDB: it reports the browsers attached
 * to it (instance registry), sends browser tasks it has no browser for to the instances that have
 * one, and runs theirs on its own browsers' spare tabs (relay runner). On the embedded store there
 * is one instance: tasks go straight to its hub.
 */
export function createCluster({
  hub,
  stores,
  log,
  clustered,
  instanceId,
  isolatesUpdates,
  launchesBrowsers = true,
}: {
  hub: BrowserHub;
  stores: Stores;
  log: Log;
  clustered: boolean;
  instanceId: string;
  /** Whether this server launches browsers of its own (BROWSERS, STEALTH_BROWSERS): then one is always on its way. */
  launchesBrowsers?: boolean;
  /** Whether the database isolates `$inc` between instances (Database.isolatesUpdates). */
  isolatesUpdates: () => Promise<boolean>;
}): Cluster {
  if (!clustered) {
    const presence = createBrowserPresence({
      browsersInCluster: () => hub.connectedBrowsers(),
      launchesBrowsers,
      graceMs: RELAY_NO_BROWSER_GRACE_MS,
    });
    return {
      runTask: unlessNoBrowser(presence, (spec, options) => hub.runTask(spec, options)),
      connectedBrowsers: (browserClass) => hub.connectedBrowsers(browserClass),
      browsersInCluster: () => hub.connectedBrowsers(),
      registry: undefined,
      start: () => presence.start(),
      stop: async () => presence.stop(),
    };
  }
  const poolTabs = (): Record<BrowserClass, number> => ({
    basic: hub.poolTabs('basic', { sharedOnly: true }),
    stealth: hub.poolTabs('stealth', { sharedOnly: true }),
  });
  const registry = createInstanceRegistry({
    id: instanceId,
    instances: stores.instances,
    log,
    attached: () => ({ poolTabs: poolTabs(), browsers: hub.connectedBrowsers() }),
  });
  const router = createClusterTaskRouter({ hub, relayed: stores.relayedTasks, registry });
  const relayRunner = createRelayRunner({ relayed: stores.relayedTasks, hub, owner: registry.id, log });
  const browsersInCluster = () => hub.connectedBrowsers() + registry.browsersElsewhere();
  const presence = createBrowserPresence({
    browsersInCluster,
    // Until this instance has read the registry, the others' browsers are unknown, not absent.
    countKnown: () => registry.instances()?.some((record) => record._id === instanceId) ?? false,
    launchesBrowsers,
    graceMs: RELAY_NO_BROWSER_GRACE_MS,
    // A browser that joined another instance shows here within its next report and our next read.
    confirmMs: 2 * INSTANCE_REPORT_MS + 1_000,
  });
  /**
   * Credits reserved by an instance that died (a kill, a crash) go back as soon as its record
   * expires, instead of at the hour-old sweep: a team's balance is exact within seconds.
   */
  let sweeper: NodeJS.Timeout | undefined;
  const releaseOrphaned = async () => {
    const live = registry.instances();
    if (live === undefined || !live.some((record) => record._id === instanceId)) return;
    const released = await stores.creditLedger.releaseOrphaned({
      liveHolders: live.map((record) => record._id),
      before: new Date(Date.now() - ORPHAN_GRACE_MS),
    });
    if (released > 0) log.info('released the credit reservations of a gone instance', { released });
  };
  /**
   * Where the database does not isolate `$inc` between processes (FerretDB 1.x), the teams'
   * running credit totals lose updates under several instances: the teams charged lately are set
   * to their ledgers' sums (the truth), again for a few rounds after their last charge, so the
   * totals are exact once the work stops. MongoDB needs none of this.
   */
  let reconciledUpTo = new Date(0);
  const reconcileCredits = async () => {
    if (await isolatesUpdates()) return;
    const now = new Date();
    const since = new Date(
      Math.max(reconciledUpTo.getTime(), now.getTime() - RECONCILE_WINDOW_MS) - RECONCILE_WINDOW_MS,
    );
    for (const teamId of await stores.creditLedger.teamsActiveSince(since)) {
      await stores.creditLedger.reconcile(teamId);
    }
    reconciledUpTo = now;
  };
  return {
    runTask: unlessNoBrowser(presence, router.runTask),
    connectedBrowsers: router.connectedBrowsers,
    browsersInCluster,
    registry,
    start() {
      registry.start();
      relayRunner.start();
      presence.start();
      sweeper = setInterval(
        () =>
          void releaseOrphaned()
            .then(reconcileCredits)
            .catch((err: unknown) => log.warn('could not sweep the credit ledger', { error: String(err) })),
        ORPHAN_SWEEP_MS,
      );
      sweeper.unref();
    },
    async stop() {
      clearInterval(sweeper);
      presence.stop();
      relayRunner.stop();
      await registry.stop();
    },
  };
}
