import type { BrowserClass, PageCapture, PageTaskSpec } from '../../../shared/protocol/messages';
import type { BrowserHub, RunOptions } from '../hub';
import type { RelayedTaskStore } from '../../platform/store';
import type { InstanceRegistry } from './instance-registry';
import { relayTask } from './relay-task';

/**
 * Where a browser task runs when several instances share the database: here when a browser that
 * may take it is attached here (a pool browser of its class, the team's own, or the team's
 * donated browser for the URL), else on another instance through the store (relay-task.ts). A
 * session (a tab kept for commands) always runs here, where its commands arrive.
 */
export function createClusterTaskRouter({
  hub,
  relayed,
  registry,
}: {
  hub: BrowserHub;
  relayed: RelayedTaskStore;
  registry: InstanceRegistry;
}) {
  const classOf = (options: RunOptions): BrowserClass => options.browserClass ?? 'basic';
  const runsHere = (spec: PageTaskSpec, options: RunOptions) =>
    spec.session !== undefined ||
    // Another instance would run it on its own hub's browsers, where nothing keeps it to the
    // team's donated browser: it waits here for that browser instead.
    options.donatedOnly === true ||
    hub.hasPoolBrowser(classOf(options), options.teamId) ||
    (options.teamId !== undefined && !options.isolated && hub.donatedCovers(options.teamId, spec.url));

  return {
    runTask(spec: PageTaskSpec, options: RunOptions): Promise<PageCapture> {
      if (runsHere(spec, options)) return hub.runTask(spec, options);
      return relayTask(
        {
          relayed,
          origin: registry.id,
          browsersFor: (_spec, taskOptions) =>
            registry.poolTabsElsewhere(classOf(taskOptions)) + hub.connectedBrowsers(classOf(taskOptions)),
        },
        spec,
        options,
      );
    },
    /**
     * Whether (how many) pool browsers of a class this instance can reach: its own, plus the other
     * instances' shared tabs (a count that is only ever compared with 0).
     */
    connectedBrowsers: (browserClass: BrowserClass) =>
      hub.connectedBrowsers(browserClass) + registry.poolTabsElsewhere(browserClass),
  };
}

export type ClusterTaskRouter = ReturnType<typeof createClusterTaskRouter>;
