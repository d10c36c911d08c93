import type { Server } from 'node:http';
import type { BrowserTokens } from '../browsers/hub/browser-tokens';
import { createBrowserHub } from '../browsers/hub/create-browser-hub';
import { createDonatedBrowserDirectory } from '../browsers/hub/donated-browser-directory';
import { createNodeTokenDirectory } from '../browsers/hub/node-token-directory';
import { createCluster } from '../browsers/cluster/create-cluster';
import type { SessionBrowsers } from '../browsers/launcher/create-session-browsers';
import { registerHubGauges } from '../browsers/metrics/hub-gauges';
import { timeBrowserTasks } from '../browsers/metrics/time-browser-tasks';
import { createPairingService } from '../browsers/pairing/create-pairing-service';
import type { Config } from '../platform/config';
import type { Lifecycle } from '../platform/lifecycle/lifecycle';
import type { Log } from '../platform/log/log';
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
