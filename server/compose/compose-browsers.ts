import type { Server } from 'node:http';
import {
  type BrowserTokens,
  createBrowserHub,
  createDonatedBrowserDirectory,
  createNodeTokenDirectory,
  createCluster,
  type SessionBrowsers,
  registerHubGauges,
  timeBrowserTasks,
  createPairingService,
} from '../browsers';
import type { Config, Lifecycle, Log } from '../platform';
import type { Platform } from './compose-platform';

/**
 * The browsers' side: the hub every browser connects to, the cluster that shares browser work
 * between instances, pairing of donated browsers, and the gauges that watch them.
 */
export function composeBrowsers({
  config,
  log,
  lifecycle,
  server,
  tokens,
  sessionBrowsers,
  platform: { metrics, database, instanceId, stores, clustered },
}: {
  config: Config;
  log: Log;
  lifecycle: Lifecycle;
  server: Server;
  tokens: BrowserTokens;
  sessionBrowsers: SessionBrowsers | undefined;
  platform: Platform;
}) {
  const hub = createBrowserHub({
    log,
    tokens,
    tabsPerBrowser: config.TABS_PER_BROWSER,
    donatedBrowsers: createDonatedBrowserDirectory({
      registrations: stores.browserRegistrations,
      teams: stores.teams,
    }),
    nodeTokens: createNodeTokenDirectory(stores.browserNodeTokens),
    ...(sessionBrowsers === undefined ? {} : { reservations: sessionBrowsers }),
  });
  lifecycle.use('browser hub', { close: () => hub.close() });
  // Closed just before the hub: by then everything that answers requests has stopped.
  lifecycle.use('http server', {
    close: () => {
      server.close();
      server.closeAllConnections();
    },
  });
  const cluster = createCluster({
    hub,
    stores,
    log,
    clustered,
    instanceId,
    isolatesUpdates: () => database.isolatesUpdates(),
  });
  lifecycle.use('cluster', { start: () => cluster.start(), close: () => cluster.stop() });
  // Team ids only for an operator who set METRICS_TOKEN: an open /metrics names no tenant.
  registerHubGauges(metrics, hub, { teamIds: config.METRICS_TOKEN !== undefined });
  const pairing = createPairingService({
    pairingCodes: stores.pairingCodes,
    registrations: stores.browserRegistrations,
    teams: stores.teams,
    disconnect: hub.disconnectRevoked,
  });
  return { hub, cluster, pairing, runTask: timeBrowserTasks(cluster.runTask, metrics) };
}

export type Browsers = ReturnType<typeof composeBrowsers>;
