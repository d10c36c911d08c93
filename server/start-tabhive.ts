import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HUB_PATH } from '../shared/protocol/messages';
import { createApp } from './app';
import { resolveDefaultApiKey } from './auth/default-api-key';
import { DEFAULT_TEAM, createStaticKeyring, createStoreKeyring } from './auth/keyring';
import type { Config } from './config';
import { createBrowserTokens, type BrowserTokens } from './hub/browser-tokens';
import { createCrawlPromptReader } from './crawl-prompt/create-crawl-prompt-reader';
import { createBrowserHub, type BrowserHub } from './hub/create-browser-hub';
import { createDonatedBrowserDirectory } from './hub/donated-browser-directory';
import { createEgress } from './egress/create-egress';
import { HTTP_PAGES_IN_FLIGHT, createBrowserSlots, type BrowserSlots } from './jobs/browser-slots';
import { createJobRunner, type JobRunner } from './jobs/create-job-runner';
import type { JobSpec } from './jobs/job-spec';
import { createJobService } from './jobs/create-job-service';
import { createStatusSocket, isStatusSocketPath } from './jobs/create-status-socket';
import { createLocalLauncher, type LocalLauncher } from './launcher/create-local-launcher';
import { findChrome } from './launcher/find-chrome';
import { startStealthBrowsers } from './launcher/start-stealth-browsers';
import { createLlmProvider } from './llm/llm-provider';
import { createMapCharging } from './map/charge-map';
import { createMapIndexRecorder } from './map/create-map-index-recorder';
import { createMapper } from './map/create-mapper';
import { createPairingService } from './pairing/create-pairing-service';
import { addPageToSearchIndex } from './search/add-page-to-search-index';
import type { Log } from './log';
import { createCachedCapture } from './scrape/cached-capture';
import { withCharging } from './scrape/charge-scrape';
import { withTeamConcurrency } from './scrape/with-team-concurrency';
import { createTeamAdmin } from './teams/team-admin';
import { createTeamLimits } from './teams/team-limits';
import { createScraper } from './scrape/create-scraper';
import { createHttpFastPath } from './scrape/fast-path/create-http-fast-path';
import { fastPathEligible } from './scrape/fast-path/fast-path-eligible';
import { createSearchProvider } from './search/create-search-provider';
import { createSearchService } from './search/create-search-service';
import { createDerivationPool } from './workers/create-derivation-pool';
import { createStores, type Stores } from './store/create-stores';
import { openDatabase } from './store/open-database';
import { prepareStores } from './store/prepare-stores';
import { createUrlPolicy, type LookupFn } from './url-policy/create-url-policy';
import { createWebhookSender } from './webhooks/create-webhook-sender';
import { writeWebhookSecret } from './webhooks/write-webhook-secret';

/** Where `npm run build` (wxt build) puts the extension. */
export const DEFAULT_EXTENSION_DIR = fileURLToPath(new URL('../.output/chrome-mv3', import.meta.url));

export interface RunningTabhive {
  /** Base URL of the API, e.g. http://127.0.0.1:3002 */
  url: string;
  hub: BrowserHub;
  stores: Stores;
  launcher: LocalLauncher | undefined;
  /** Launch tokens of this server's hub (tests launch a browser of their own with one). */
  browserTokens: BrowserTokens;
  jobRunner: JobRunner;
  /** The browser tabs the job runner's pages hold now, out of their share. */
  jobBrowserSlots: BrowserSlots;
  generatedApiKey: string | undefined;
  apiKeyFile: string | undefined;
  stop(): Promise<void>;
  killBrowsersNow(): void;
}

const urlHost = (host: string) => (host.includes(':') ? `[${host}]` : host);
/** Browsers on this machine reach a wildcard listener through loopback. */
const reachableHost = (host: string) => (host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host);

/**
 * Composes Tabhive from its configuration on a given HTTP server: the API, the browser hub on the
 * same port, and the local browser pool. main.ts calls it; end-to-end tests call it with their
 * own configuration and port 0.
 */
export async function startTabhive({
  config,
  server,
  log,
  extensionDir = DEFAULT_EXTENSION_DIR,
  extraChromeArgs,
  webhookRetryDelaysMs,
  lookup,
  browserRelaunchMs,
}: {
  config: Config;
  server: Server;
  log: Log;
  extensionDir?: string;
  /** Tests only: extra command-line flags for launched browsers. */
  extraChromeArgs?: readonly string[];
  /** Tests only: the webhook retry schedule instead of 1, 5 and 15 minutes. */
  webhookRetryDelaysMs?: readonly number[];
  /** Tests only: DNS for the URL policy and the egress, so that public-looking names stay local. */
  lookup?: LookupFn;
  /** Tests only: how long a launched browser may stay disconnected before it is relaunched. */
  browserRelaunchMs?: number;
}): Promise<RunningTabhive> {
  // Fail before listening when the pool cannot start: a server that answers but can never scrape misleads.
  let chromePath: string | undefined;
  if (config.BROWSERS > 0) {
    chromePath = findChrome(config.CHROME_PATH);
    if (!existsSync(path.join(extensionDir, 'manifest.json'))) {
      throw new Error(`The extension is not built (${extensionDir} has no manifest.json): run npm run build`);
    }
  }

  const defaultKey = await resolveDefaultApiKey({ configured: config.API_KEY, dataDir: config.DATA_DIR });
  const database = await openDatabase({ mongodbUrl: config.MONGODB_URL, dataDir: config.DATA_DIR, log });
  const stores = createStores(database);
  // The configured key works even while the database is down; every other key lives in the store.
  const keyring = createStoreKeyring({
    apiKeys: stores.apiKeys,
    teams: stores.teams,
    fixed: createStaticKeyring([{ apiKey: defaultKey.apiKey, team: DEFAULT_TEAM }]),
  });
  const teamLimits = createTeamLimits({
    teams: stores.teams,
    pageTasks: stores.pageTasks,
    rateWindows: stores.rateWindows,
    defaults: { concurrency: config.TEAM_CONCURRENCY, ratePerMinute: config.RATE_LIMIT_PER_MINUTE },
    log,
  });
  const stopStoreTimers = prepareStores(stores, log);
  const tokens = createBrowserTokens();
  const hub = createBrowserHub({
    log,
    tokens,
    tabsPerBrowser: config.TABS_PER_BROWSER,
    donatedBrowsers: createDonatedBrowserDirectory({
      registrations: stores.browserRegistrations,
      teams: stores.teams,
    }),
  });
  const derivationPool = createDerivationPool({ log });
  const mapIndexRecorder = createMapIndexRecorder({ mapIndex: stores.mapIndex, log });
  const networkSettings = {
    allowPrivateNetworks: config.ALLOW_PRIVATE_NETWORKS,
    allowedPrivateHosts: config.ALLOWED_PRIVATE_HOSTS,
    ...(lookup === undefined ? {} : { lookup }),
  };
  const urlPolicy = createUrlPolicy(networkSettings);
  const egress = createEgress(networkSettings);
  const llm = createLlmProvider({
    baseUrl: config.LLM_BASE_URL,
    apiKey: config.LLM_API_KEY,
    model: config.LLM_MODEL,
  });
  const scraperParts = {
    fastPath: config.HTTP_FAST_PATH
      ? createHttpFastPath({ egress, deriveFetched: derivationPool.deriveFetched })
      : undefined,
    derive: derivationPool.derive,
    runTask: hub.runTask,
    donatedCovers: hub.donatedCovers,
    connectedBrowsers: hub.connectedBrowsers,
    urlPolicy,
    cachedCapture: createCachedCapture({ cache: stores.cache, log }),
    results: stores.results,
    log,
    llm,
    changeSnapshots: stores.changeSnapshots,
    mapIndex: mapIndexRecorder,
    searchIndex: stores.searchIndex,
  };
  const scraper = createScraper(scraperParts);
  const tabs = () => hub.connectedBrowsers('basic') * config.TABS_PER_BROWSER;
  // Job pages hold a tab only when they go to a browser; those served over HTTP do not wait for one.
  // They may fill every tab: a task someone waits for (a scrape, a search) takes the next tab that
  // frees, ahead of the job's pages (task-scheduler.ts priorities).
  const jobBrowserSlots = createBrowserSlots(tabs);
  const jobScraper = createScraper({
    ...scraperParts,
    runTask: (spec, options) =>
      jobBrowserSlots.run(() => hub.runTask(spec, { ...options, priority: 'background' })),
  });
  const jobs = createJobService({ stores, urlPolicy });
  const jobRunner = createJobRunner({
    stores,
    scraper: jobScraper,
    egress,
    log,
    teamConcurrency: config.TEAM_CONCURRENCY,
    capacity: tabs,
    ...(config.HTTP_FAST_PATH
      ? {
          httpPages: {
            extra: HTTP_PAGES_IN_FLIGHT,
            eligible: (spec: JobSpec) => fastPathEligible(spec.scrapeOptions),
          },
        }
      : {}),
  });
  const webhookSender = createWebhookSender({
    outbox: stores.webhookOutbox,
    teams: stores.teams,
    egress,
    log,
    ...(webhookRetryDelaysMs === undefined ? {} : { retryDelaysMs: webhookRetryDelaysMs }),
  });
  // SearXNG is the operator's own service, usually on a private network: its egress allows that.
  const searxngEgress = createEgress({ allowPrivateNetworks: true });
  const search = createSearchService({
    provider: createSearchProvider({ config, searchIndex: stores.searchIndex, scraper, searxngEgress }),
    scraper,
    creditLedger: stores.creditLedger,
    teams: stores.teams,
    allowPrivateNetworks: config.ALLOW_PRIVATE_NETWORKS,
    log,
  });
  const statusSocket = createStatusSocket({ keyring, jobs, stores, log });
  const mapper = createMapper({
    egress,
    scraper,
    urlPolicy,
    mapIndex: stores.mapIndex,
    sitemapFetches: stores.sitemapFetches,
    recorder: mapIndexRecorder,
    charging: createMapCharging({ teams: stores.teams, creditLedger: stores.creditLedger, log }),
    log,
  });
  const app = createApp({
    jobs,
    mapper,
    readCrawlPrompt: createCrawlPromptReader({ llm, log }),
    search,
    log,
    keyring,
    // Single scrapes hold a team slot and are booked here; jobs book their own pages.
    scraper: withTeamConcurrency(
      withCharging(scraper, { creditLedger: stores.creditLedger, log }),
      teamLimits,
    ),
    results: stores.results,
    connectedBrowsers: hub.connectedBrowsers,
    storeKind: database.kind,
    pairing: {
      service: createPairingService({
        pairingCodes: stores.pairingCodes,
        registrations: stores.browserRegistrations,
        teams: stores.teams,
        disconnect: hub.disconnectRevoked,
      }),
      connectedIds: () => new Set(hub.browserStatuses().map((browser) => browser.browserId)),
      savePage: (teamId, page) =>
        addPageToSearchIndex(stores.searchIndex, { teamId, ...page, source: 'donated' }),
    },
    teams: { store: stores.teams, limits: teamLimits },
    ...(config.ADMIN_API_KEY === undefined
      ? {}
      : { admin: { admin: createTeamAdmin(stores), adminApiKey: config.ADMIN_API_KEY } }),
    publicUrl: config.PUBLIC_URL,
  });

  server.on('request', app.callback());
  server.on('upgrade', (request, socket, head) => {
    const pathname = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (pathname === HUB_PATH) hub.handleUpgrade(request, socket, head);
    else if (isStatusSocketPath(pathname)) void statusSocket.handleUpgrade(request, socket, head);
    else socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.PORT, config.HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${urlHost(config.HOST)}:${port}`;

  // The default team and its webhook secret exist before the first job; a database that is down
  // now only delays them (jobs create their team, the sender makes the secret on first use).
  await stores.teams
    .ensure({ id: DEFAULT_TEAM.id, name: DEFAULT_TEAM.name })
    .then(() => stores.apiKeys.setConfigured({ apiKey: defaultKey.apiKey, teamId: DEFAULT_TEAM.id }))
    .then(() => stores.teams.webhookSecret(DEFAULT_TEAM.id))
    .then((secret) => (secret === undefined ? undefined : writeWebhookSecret(config.DATA_DIR, secret)))
    .catch((err: unknown) => log.warn('could not prepare the default team', { error: String(err) }));
  jobRunner.start();
  webhookSender.start();
  derivationPool.warm();

  // The launchers' watchdog: a launched browser counts as up while the browser that spent its
  // launch token has a socket on the hub.
  const launchedBrowserWatch = {
    isConnected: (launchToken: string) => {
      const browserId = tokens.browserIdOf(launchToken);
      return browserId !== undefined && hub.isBrowserConnected(browserId);
    },
    ...(browserRelaunchMs === undefined ? {} : { disconnectedRelaunchMs: browserRelaunchMs }),
  };
  let launcher: LocalLauncher | undefined;
  if (chromePath !== undefined) {
    launcher = createLocalLauncher({
      count: config.BROWSERS,
      chromePath,
      extensionDir,
      hubUrl: `ws://${urlHost(reachableHost(config.HOST))}:${port}${HUB_PATH}`,
      tokens,
      log,
      extraArgs: extraChromeArgs,
      ...launchedBrowserWatch,
    });
    await launcher.start();
  }
  const stealthLauncher = startStealthBrowsers({
    config,
    chromePath,
    extensionDir,
    hubUrl: `ws://${urlHost(reachableHost(config.HOST))}:${port}${HUB_PATH}`,
    tokens,
    log,
    extraArgs: extraChromeArgs,
    ...launchedBrowserWatch,
  });
  await stealthLauncher?.start();

  return {
    url,
    hub,
    stores,
    launcher,
    browserTokens: tokens,
    jobRunner,
    jobBrowserSlots,
    generatedApiKey: defaultKey.generated ? defaultKey.apiKey : undefined,
    apiKeyFile: defaultKey.file,
    async stop() {
      await jobRunner.stop();
      webhookSender.stop();
      statusSocket.close();
      server.close();
      server.closeAllConnections();
      await hub.close();
      await launcher?.stop();
      await stealthLauncher?.stop();
      await derivationPool.close();
      stopStoreTimers();
      await mapIndexRecorder.idle();
      await egress.close();
      await searxngEgress.close();
      await database.close();
    },
    killBrowsersNow: () => {
      launcher?.killNow();
      stealthLauncher?.killNow();
    },
  };
}
