import type { Server } from 'node:http';
import {
  type BrowserTokens,
  createBrowserHub,
  createDonatedBrowserDirectory,
  createDonatedRoutes,
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
  const donatedBrowsers = createDonatedBrowserDirectory({
    registrations: stores.browserRegistrations,
    teams: stores.teams,
  });
  const hub = createBrowserHub({
    log,
    tokens,
    tabsPerBrowser: config.TABS_PER_BROWSER,
    donatedBrowsers,
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
    // A server that launches none gets its browsers from nodes and pairings: with none attached,
    // a task fails at once instead of waiting for one.
    launchesBrowsers:
      config.BROWSERS > 0 || (config.STEALTH_PROXY_URL !== undefined && config.STEALTH_BROWSERS > 0),
  });
  lifecycle.use('cluster', { start: () => cluster.start(), close: () => cluster.stop() });
  // Team ids only for an operator who set METRICS_TOKEN: an open /metrics names no tenant.
  registerHubGauges(metrics, hub, { teamIds: config.METRICS_TOKEN !== undefined });
  const pairing = createPairingService({
    pairingCodes: stores.pairingCodes,
    registrations: stores.browserRegistrations,
    teams: stores.teams,
    // A revoked browser's sites leave its team's routing at once here (other instances within seconds).
    disconnect: (browserId) => {
      donatedBrowsers.forgetPaired();
      hub.disconnectRevoked(browserId);
    },
  });
  // Which of a team's URLs only its donated browsers may take, decided before any name is resolved.
  const donatedRoutes = createDonatedRoutes({ hub, directory: donatedBrowsers });
  return { hub, cluster, pairing, donatedRoutes, runTask: timeBrowserTasks(cluster.runTask, metrics) };
}

export type Browsers = ReturnType<typeof composeBrowsers>;
