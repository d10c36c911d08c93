import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { HUB_PATH } from '../../shared/protocol/messages';
import { createApp, createConsoleDeps } from '../api';
import { createNodeTokenAdmin } from '../browsers';
import { createTeamAdmin, createUsageReports, type Config, type Lifecycle, type Log } from '../platform';
import {
  addPageToSearchIndex,
  createCrawlPromptReader,
  isCdpRelayPath,
  isLiveViewSocketPath,
  isStatusSocketPath,
} from '../products';
import type { Browsers } from './compose-browsers';
import type { Platform } from './compose-platform';
import type { Products } from './compose-products';
import type { Scrape } from './compose-scrape';

/**
 * The API over everything composed below it: the Koa app of every route, and the WebSocket
 * upgrades the same port serves (the hub, job status, live view, CDP relay).
 */
export function composeApi({
  config,
  log,
  lifecycle,
  platform: { database, stores, keyring, teamLimits, metrics, llm, clustered, proxyPool },
  browsers: { hub, cluster, pairing },
  scrape: { scraper, documentPool, workProblems },
  products: {
    browserSessions,
    liveSessions,
    sessionReplays,
    jobs,
    mapper,
    extract,
    llmsTxt,
    agent,
    monitors,
    search,
    statusSocket,
    liveViewSocket,
    cdpRelay,
  },
}: {
  config: Config;
  log: Log;
  lifecycle: Lifecycle;
  platform: Platform;
  browsers: Browsers;
  scrape: Scrape;
  products: Products;
}) {
  const consoleDeps = createConsoleDeps({
    database,
    stores,
    hub,
    metrics,
    adminApiKey: config.ADMIN_API_KEY,
    clustered,
    log,
  });
  // The overview's hour of figures, sampled while the server runs; stopped before the store closes.
  lifecycle.use('console figures', { start: consoleDeps.figures.start, close: consoleDeps.figures.stop });
  const app = createApp({
    parseMaxFileBytes: config.PARSE_MAX_FILE_BYTES,
    parseDerive: documentPool.derive,
    browserSessions,
    liveSessions,
    sessionReplays,
    jobs,
    mapper,
    extract,
    llmsTxt,
    agent,
    monitors: monitors.service,
    readCrawlPrompt: createCrawlPromptReader({ llm, log }),
    search,
    log,
    keyring,
    // Single scrapes (admission 'api') hold a team slot and are booked; jobs book their own pages.
    scraper,
    results: stores.results,
    connectedBrowsers: hub.connectedBrowsers,
    storeKind: database.kind,
    pairing: {
      service: pairing,
      connectedIds: () => new Set(hub.browserStatuses().map((browser) => browser.browserId)),
      savePage: (teamId, page) =>
        addPageToSearchIndex(stores.searchIndex, { teamId, ...page, source: 'donated' }),
    },
    teams: {
      store: stores.teams,
      limits: teamLimits,
      reports: createUsageReports({
        usageMonths: stores.usageMonths,
        creditLedger: stores.creditLedger,
        pageTasks: stores.pageTasks,
        limits: teamLimits,
      }),
    },
    ...(config.ADMIN_API_KEY === undefined
      ? {}
      : {
          admin: {
            admin: createTeamAdmin(stores),
            adminApiKey: config.ADMIN_API_KEY,
            browsers: () => hub.engineStats(),
            nodeTokens: createNodeTokenAdmin(stores),
            pairing: pairing,
          },
        }),
    publicUrl: config.PUBLIC_URL,
    console: proxyPool === undefined ? consoleDeps : { ...consoleDeps, proxies: proxyPool.stats },
    observability: {
      metrics: { registry: metrics.registry, token: config.METRICS_TOKEN },
      readiness: {
        pingStore: () => database.ping(),
        browsersAvailable: () => cluster.browsersInCluster(),
        servesBrowserWork: config.BROWSERS > 0,
        workProblems,
      },
    },
  });

  const handleUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const pathname = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (pathname === HUB_PATH) hub.handleUpgrade(request, socket, head);
    else if (isStatusSocketPath(pathname)) void statusSocket.handleUpgrade(request, socket, head);
    else if (isLiveViewSocketPath(pathname)) liveViewSocket.handleUpgrade(request, socket, head);
    else if (isCdpRelayPath(pathname)) void cdpRelay.handleUpgrade(request, socket, head);
    else socket.destroy();
  };
  return { handleRequest: app.callback(), handleUpgrade };
}
