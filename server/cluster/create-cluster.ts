import type { BrowserClass, PageCapture, PageTaskSpec } from '../../shared/protocol/messages';
import type { BrowserHub } from '../hub/create-browser-hub';
import type { RunOptions } from '../hub/task-scheduler';
import type { Log } from '../log';
import type { Stores } from '../store/create-stores';
import { createClusterTaskRouter } from './cluster-task-router';
import { createInstanceRegistry, type InstanceRegistry } from './instance-registry';
import { createRelayRunner } from './relay-runner';

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
}: {
  hub: BrowserHub;
  stores: Stores;
  log: Log;
  clustered: boolean;
}): Cluster {
  if (!clustered) {
    return {
      runTask: (spec, options) => hub.runTask(spec, options),
      connectedBrowsers: (browserClass) => hub.connectedBrowsers(browserClass),
      browsersInCluster: () => hub.connectedBrowsers(),
      registry: undefined,
      start: () => undefined,
      stop: async () => undefined,
    };
  }
  const poolTabs = (): Record<BrowserClass, number> => ({
    basic: hub.poolTabs('basic', { sharedOnly: true }),
    stealth: hub.poolTabs('stealth', { sharedOnly: true }),
  });
  const registry = createInstanceRegistry({
    instances: stores.instances,
    log,
    attached: () => ({ poolTabs: poolTabs(), browsers: hub.connectedBrowsers() }),
  });
  const router = createClusterTaskRouter({ hub, relayed: stores.relayedTasks, registry });
  const relayRunner = createRelayRunner({ relayed: stores.relayedTasks, hub, owner: registry.id, log });
  return {
    runTask: router.runTask,
    connectedBrowsers: router.connectedBrowsers,
    browsersInCluster: () => hub.connectedBrowsers() + registry.browsersElsewhere(),
    registry,
    start() {
      registry.start();
      relayRunner.start();
    },
    async stop() {
      relayRunner.stop();
      await registry.stop();
    },
  };
}
